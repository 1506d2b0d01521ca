-- Cookie and tracker scans: one row per scan (its request, state and result, from the scan events),
-- plus the runner's progress while it works (pages done, the page it is on; not history, so not
-- events), and the owner's purpose assignments per item.
CREATE TABLE scans (
  scan_id uuid PRIMARY KEY,
  website_id uuid NOT NULL,
  trigger text NOT NULL,
  requested_by text,
  max_pages integer NOT NULL,
  -- queued → running (claimed by a runner) → completed | failed
  status text NOT NULL,
  requested_at timestamptz NOT NULL,
  started_at timestamptz,
  completed_at timestamptz,
  pages_scanned integer,
  truncated boolean,
  failure_reason text,
  items jsonb,
  findings jsonb,
  finding_count integer NOT NULL DEFAULT 0,
  claimed_by text,
  claimed_at timestamptz,
  pages_done integer NOT NULL DEFAULT 0,
  pages_planned integer NOT NULL DEFAULT 0,
  current_url text
);
CREATE INDEX scans_by_website ON scans (website_id, requested_at DESC);
CREATE INDEX scans_queued ON scans (requested_at) WHERE status = 'queued';

CREATE TABLE scan_assignments (
  website_id uuid NOT NULL,
  kind text NOT NULL,
  name text NOT NULL,
  purpose text NOT NULL,
  assigned_by text NOT NULL,
  assigned_at timestamptz NOT NULL,
  PRIMARY KEY (website_id, kind, name)
);

-- One scan at a time per website: a second request while one waits or runs is refused (409), and a
-- scheduled scan is skipped, rather than queueing the same work twice.
CREATE UNIQUE INDEX scans_one_open ON scans (website_id) WHERE status IN ('queued', 'running');
