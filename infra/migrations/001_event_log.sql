-- The event log: the single source of truth (DESIGN.md, "The event log").
--
-- Global order is (transaction_id, position). position comes from a sequence and is allocated
-- before commit, so a reader that followed position alone would skip rows of transactions that
-- commit late; transaction_id (xid8) lets readers take only rows of transactions older than every
-- transaction still running (pg_snapshot_xmin), which can never gain new rows below them.
CREATE TABLE events (
  position        bigint GENERATED ALWAYS AS IDENTITY,
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  event_id        uuid        NOT NULL,
  stream_id       text        NOT NULL,
  -- Owner-side streams are versioned for optimistic concurrency; consent streams are not (NULL).
  stream_version  bigint,
  type            text        NOT NULL,
  schema_version  smallint    NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_pkey PRIMARY KEY (position),
  CONSTRAINT events_event_id_key UNIQUE (event_id),
  CONSTRAINT events_stream_version_positive CHECK (stream_version IS NULL OR stream_version > 0)
);

-- Versioned streams only: keeps the hot consent insert path to three indexes.
CREATE UNIQUE INDEX events_stream_version_key ON events (stream_id, stream_version)
  WHERE stream_version IS NOT NULL;

-- The gap-safe reading order of the relay, catch-up and replay.
CREATE INDEX events_global_order ON events (transaction_id, position);

-- The read horizon: events of transactions older than it can no longer be joined by new rows, so
-- readers take only those (see docs/architecture.md, "Gap-safe order"). pg_snapshot_xmin is
-- cluster-wide: one long write transaction in ANY database on the server would stall every reader
-- here. Only transactions of this database can insert into this table, so the horizon is the oldest
-- running transaction of this database (live from the process array: pg_stat_clear_snapshot) or
-- the next transaction id. A role that cannot see other roles' sessions falls back to the safe,
-- cluster-wide xmin. Sessions named 'consentry replay writer' are left out too: a replay rebuilds
-- a read model in one long transaction but never inserts events, so it must not stall the relay
-- and the other projectors (the name is reserved for that). Call it in its own statement, BEFORE
-- the statement that reads events: a transaction older than the horizon had finished when the
-- horizon was taken, so a later snapshot sees its rows.
CREATE FUNCTION events_read_horizon() RETURNS xid8
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  snap pg_snapshot := pg_current_snapshot();
  -- xmax is one past the latest completed xid; running transactions may have xids on either side.
  xmax bigint := pg_snapshot_xmax(snap)::text::bigint;
  oldest bigint;
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER') THEN
    RETURN pg_snapshot_xmin(snap);
  END IF;
  PERFORM pg_stat_clear_snapshot();
  -- backend_xid is a 32-bit xid. A running xid is within 2^31 of xmax, so its 64-bit value is the
  -- one of (xmax's epoch - 1, same, + 1) nearest to xmax.
  SELECT min(xmax + (((x - (xmax & 4294967295)) + 6442450944) % 4294967296) - 2147483648) INTO oldest
    FROM (SELECT backend_xid::text::bigint AS x FROM pg_stat_activity
           WHERE datname = current_database() AND backend_xid IS NOT NULL
             AND application_name IS DISTINCT FROM 'consentry replay writer'
          UNION ALL
          SELECT transaction::text::bigint FROM pg_prepared_xacts WHERE database = current_database()) AS running;
  RETURN least(coalesce(oldest, xmax), xmax)::text::xid8;
END;
$$;

-- Append-only, enforced by the database for every role. Only a purge or erasure job may remove or
-- rewrite rows, and it must say so inside its own transaction (SET LOCAL consentry.maintenance)
-- and record what it removed as events. This guards against mistakes; tampering by someone with
-- superuser rights is what the seals (tamper evidence) detect.
CREATE FUNCTION events_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('consentry.maintenance', true), '') IN ('purge', 'erasure') THEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Events are never changed; append a new event instead.';
END;
$$;

CREATE TRIGGER events_append_only
  BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION events_refuse_change();

CREATE TRIGGER events_no_truncate
  BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();

-- Where each reader of the log (the relay, every async projection) has got to.
CREATE TABLE checkpoints (
  name            text        PRIMARY KEY,
  transaction_id  xid8        NOT NULL DEFAULT '0',
  position        bigint      NOT NULL DEFAULT 0,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
