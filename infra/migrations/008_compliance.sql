-- Compliance (docs/compliance.md): seals, purges and erasures.

-- The leaves of each seal, in sealed order: the events' positions (8 bytes each, big-endian) and
-- their SHA-256 digests (32 bytes each). The signed seal event in the log holds only the Merkle root
-- over these digests, which protects them; they are what lets `consentry verify` name the exact
-- event that changed, and what keeps a purged event's digest after its row is gone.
CREATE TABLE seal_leaves (
  sequence   integer PRIMARY KEY,
  positions  bytea   NOT NULL,
  digests    bytea   NOT NULL,
  CONSTRAINT seal_leaves_sizes CHECK (length(positions) * 4 = length(digests) AND length(positions) > 0)
);

CREATE FUNCTION seal_leaves_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'seal_leaves is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER seal_leaves_append_only BEFORE UPDATE OR DELETE ON seal_leaves
  FOR EACH ROW EXECUTE FUNCTION seal_leaves_refuse_change();
CREATE TRIGGER seal_leaves_no_truncate BEFORE TRUNCATE ON seal_leaves
  FOR EACH STATEMENT EXECUTE FUNCTION seal_leaves_refuse_change();

-- Finding the old end of the log by time (the purge's cut-off) without a B-tree on the hot insert
-- path: rows are appended in time order, so a block-range index is a few pages and nearly free.
CREATE INDEX events_recorded_at_brin ON events USING brin (recorded_at) WITH (pages_per_range = 32);

-- Purge summaries an aggregate read model already reflects: the purge that removed the events
-- marks it in the same transaction (the events it removed had been counted), so the projector adds
-- the summary only when it was not counted — after a replay, when the removed events are gone.
CREATE TABLE consent_stats_purges (purge_batch_id uuid PRIMARY KEY);
CREATE TABLE consent_dimensions_purges (purge_batch_id uuid PRIMARY KEY);
