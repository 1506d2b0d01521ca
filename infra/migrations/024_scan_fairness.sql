-- Fair claiming across tenants (docs/scanner.md, "Sharing the runners"): when each tenant of a queue
-- last got a worker's turn, so a claim goes to the tenant that has waited longest since its last turn
-- (round-robin) rather than to whoever queued the most first. Any durable queue can keep its tenants
-- here under its own name: the scan queue's tenants are website owners ('scans', owner id).
CREATE TABLE queue_turns (
  queue        text        NOT NULL,
  tenant       text        NOT NULL,
  last_turn_at timestamptz NOT NULL,
  PRIMARY KEY (queue, tenant)
);

-- The scans being run right now (whose owners wait their turn behind others) and the stale ones a
-- live runner takes over, found without reading the history.
CREATE INDEX scans_running ON scans (claimed_at) WHERE status = 'running';
