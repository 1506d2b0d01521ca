-- Running Consentry processes (`consentry status`, infra/src/processes/): each process keeps one row
-- while it runs and refreshes it every few seconds (the heartbeat), so an operator sees from the one
-- shared database which roles run on which machine and which process holds which lock. Rows are
-- state, not history: a process deletes its own row when it stops, and rows not refreshed for ten
-- minutes (the process died) are deleted by the others' heartbeats.
CREATE TABLE processes (
  id           uuid        PRIMARY KEY,
  host         text        NOT NULL,
  pid          integer     NOT NULL,
  -- What `consentry start --role` runs here: ingest, api, projectors, relay, jobs.
  roles        text[]      NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  seen_at      timestamptz NOT NULL DEFAULT now(),
  -- The single-instance locks it holds right now: 'relay', 'sealer', checkpoint names such as
  -- 'projection:consent-stats/p1of4'.
  leaderships  text[]      NOT NULL DEFAULT '{}',
  version      text        NOT NULL
);

-- Finding the rows of dead processes (and the live ones) by when they were last seen.
CREATE INDEX processes_seen_at ON processes (seen_at);
