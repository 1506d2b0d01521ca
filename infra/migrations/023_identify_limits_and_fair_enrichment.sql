-- Identification that one stranger cannot turn into a bill or a queue (issue 27, item 4;
-- docs/identification.md, "Limits"): identify rate tallies shared by every ingest process, the
-- owner's monthly resolution cap with the admissions ingest checks it against, resolutions counted
-- once per person, and enrichment claimed fairly across websites.

-- ── the owner's monthly resolution cap ────────────────────────────────────────────────────────────
-- NULL: unlimited (the default). Set by WebsiteSettingsChanged.monthlyResolutionCap.
ALTER TABLE websites ADD COLUMN monthly_resolution_cap integer;

-- ── a resolution is a person, once per website and UTC month ─────────────────────────────────────
-- The person behind an identification: their normalised email (events carry it normalised), hashed
-- with the website's id so the same address on two websites gives unrelated keys; a visitor known
-- only by their network is their visitor id. Ingest's admissions and the leads projection both key
-- people with this one function, so the cap counts what the bill counts.
CREATE FUNCTION resolution_person_key(website_id uuid, visitor_id text, email text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN email IS NULL THEN 'v:' || visitor_id
                ELSE 'e:' || encode(sha256(convert_to(website_id::text || ':' || email, 'UTF8')), 'hex') END
  $$;

-- lead_resolutions keeps one row per visitor and month (so a visitor counts once whatever they send);
-- the bill counts the distinct people among them. NULL: the visitor is the person (rows written
-- before this migration, which keep counting per visitor until `consentry replay --projection leads`
-- keys them by email).
ALTER TABLE lead_resolutions ADD COLUMN person_key text;
CREATE INDEX lead_resolutions_people ON lead_resolutions (website_id, month, person_key) INCLUDE (visitor_id);

-- Ingest's side of the cap: the people it let through this period (a resolution it admitted), one
-- row per person key and one alias row per further key of a visitor already admitted (their email
-- once a network-matched visitor says who they are), so the same person is never admitted twice.
-- Not history: plain rows; an erasure deletes the visitor's rows.
CREATE TABLE resolution_admissions (
  website_id   uuid        NOT NULL,
  period       date        NOT NULL,
  person_key   text        NOT NULL,
  visitor_id   text        NOT NULL,
  admitted_at  timestamptz NOT NULL,
  PRIMARY KEY (website_id, period, person_key)
);
CREATE INDEX resolution_admissions_visitor ON resolution_admissions (website_id, period, visitor_id);

-- How many people each website admitted in a period: the row ingest locks to decide on the cap, so
-- two processes admitting the last place at once admit one.
CREATE TABLE resolution_tallies (
  website_id  uuid    NOT NULL,
  period      date    NOT NULL,
  people      integer NOT NULL CHECK (people >= 0),
  PRIMARY KEY (website_id, period)
);

-- This month's resolutions so far count toward this month's cap.
INSERT INTO resolution_admissions (website_id, period, person_key, visitor_id, admitted_at)
SELECT website_id, month, coalesce(person_key, 'v:' || visitor_id), visitor_id, resolved_at FROM lead_resolutions
 WHERE month = date_trunc('month', now() AT TIME ZONE 'UTC')::date
ON CONFLICT DO NOTHING;
INSERT INTO resolution_tallies (website_id, period, people)
SELECT website_id, period, count(*) FROM resolution_admissions GROUP BY website_id, period;

-- ── identify rate limits, shared by every ingest process ──────────────────────────────────────────
-- One row per key (an HMAC of "ip:<address>" or "website:<id>") per one-minute window. Rows older
-- than the previous window are swept by ingest now and then.
CREATE TABLE identify_rate_tallies (
  key_hash      text        NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  window_start  timestamptz NOT NULL,
  hits          integer     NOT NULL CHECK (hits >= 0),
  PRIMARY KEY (key_hash, window_start)
) WITH (fillfactor = 50);
CREATE INDEX identify_rate_tallies_window ON identify_rate_tallies (window_start);

-- ── enrichment claimed fairly across websites ─────────────────────────────────────────────────────
-- The claim walks the websites with queued jobs (a skip scan) and takes each one's earliest due jobs.
CREATE INDEX enrichment_jobs_queued_by_website ON enrichment_jobs (website_id, next_attempt_at) WHERE status = 'queued';
-- When each website last had its turn is kept in queue_turns (migration 024) under the queue name
-- 'enrichment', the machinery the scan queue shares.
-- The sweeps: cancellations waiting for their 'withdrawn' event, and claims whose worker died. Both
-- read few rows of a table that keeps every finished job.
CREATE INDEX enrichment_jobs_cancelled ON enrichment_jobs (finished_at) WHERE status = 'cancelled';
CREATE INDEX enrichment_jobs_running ON enrichment_jobs (claimed_at) WHERE status = 'running';
