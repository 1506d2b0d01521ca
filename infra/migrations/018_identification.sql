-- Consent-based visitor identification (docs/identification.md): the leads read model, the monthly
-- resolutions behind usage and billing, the owner's webhook endpoints, and two durable work queues
-- (enrichment jobs and webhook deliveries) that reactor projections fill exactly once per event.

ALTER TABLE websites ADD COLUMN identification_forms text NOT NULL DEFAULT 'all';

-- ── leads projection ──────────────────────────────────────────────────────────────────────────────
-- One row per visitor who ever allowed identification on a website (a candidate); it becomes a lead
-- once identified (email or company known). Activity counts only from the moment identification
-- was allowed: before it, nobody may be followed by name.
CREATE TABLE leads (
  website_id            uuid        NOT NULL,
  visitor_id            text        NOT NULL,
  -- 'granted' while the latest choice allows identification, 'withdrawn' after.
  consent_status        text        NOT NULL,
  consent_event_id      uuid        NOT NULL,
  consent_changed_at    timestamptz NOT NULL,
  email                 text,
  name                  text,
  company               text,
  identification_source text,
  identified_at         timestamptz,
  -- From the visitor's network (B2B).
  network_asn           bigint,
  network_organisation  text,
  -- 'none' | 'pending' | 'enriched' | 'failed'
  enrichment_status     text        NOT NULL DEFAULT 'none',
  enrichment            jsonb,
  enrichment_provider   text,
  enriched_at           timestamptz,
  first_seen            timestamptz NOT NULL,
  last_seen             timestamptz NOT NULL,
  pages_viewed          integer     NOT NULL DEFAULT 0,
  engaged_ms            bigint      NOT NULL DEFAULT 0,
  -- What the list searches and sorts by, kept lower-case: email, then name, then company.
  search_text           text,
  display_company       text,
  PRIMARY KEY (website_id, visitor_id)
) WITH (fillfactor = 80);
CREATE INDEX leads_identified_last_seen ON leads (website_id, last_seen DESC, visitor_id) WHERE identified_at IS NOT NULL;
CREATE INDEX leads_identified_at ON leads (website_id, identified_at DESC, visitor_id) WHERE identified_at IS NOT NULL;
CREATE INDEX leads_search ON leads (website_id, search_text text_pattern_ops) WHERE identified_at IS NOT NULL;
CREATE INDEX leads_company ON leads (website_id, lower(display_company) text_pattern_ops) WHERE identified_at IS NOT NULL;

-- A lead's timeline: visits, choices, identification, enrichment (newest first on the lead's page).
CREATE TABLE lead_timeline (
  website_id  uuid        NOT NULL,
  visitor_id  text        NOT NULL,
  position    bigint      NOT NULL,
  event_id    uuid        NOT NULL,
  at          timestamptz NOT NULL,
  -- 'page_view' | 'consent' | 'identified' | 'company_matched' | 'enriched' | 'enrichment_failed'
  kind        text        NOT NULL,
  detail      jsonb       NOT NULL,
  PRIMARY KEY (website_id, visitor_id, position)
);

-- A resolution: a visitor identified for the first time in a calendar month (UTC).
CREATE TABLE lead_resolutions (
  website_id  uuid        NOT NULL,
  visitor_id  text        NOT NULL,
  month       date        NOT NULL,
  resolved_at timestamptz NOT NULL,
  PRIMARY KEY (website_id, month, visitor_id)
);

-- Per website per UTC day: visitors who allowed identification for the first time, and visitors identified.
CREATE TABLE lead_daily (
  website_id  uuid   NOT NULL,
  day         date   NOT NULL,
  allowed     bigint NOT NULL DEFAULT 0,
  identified  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day)
);

-- ── webhook endpoints (inline projection; the signing secret is a credential, not history) ─────────
CREATE TABLE webhook_endpoints (
  endpoint_id  uuid        PRIMARY KEY,
  website_id   uuid        NOT NULL,
  url          text        NOT NULL,
  description  text        NOT NULL,
  event_types  text[]      NOT NULL,
  added_by     text        NOT NULL,
  added_at     timestamptz NOT NULL,
  removed_at   timestamptz
);
CREATE INDEX webhook_endpoints_by_website ON webhook_endpoints (website_id) WHERE removed_at IS NULL;

CREATE TABLE webhook_endpoint_secrets (
  endpoint_id uuid PRIMARY KEY,
  -- Standard Webhooks form: whsec_ followed by base64 of 32 random bytes.
  secret      text NOT NULL
);

-- ── durable work queues ───────────────────────────────────────────────────────────────────────────
-- Enrichment jobs: one per identification or company match (source_event_id), claimed with SKIP
-- LOCKED, retried with back-off until deadline_at (24 hours after it was queued).
CREATE TABLE enrichment_jobs (
  job_id           uuid        PRIMARY KEY,
  source_event_id  uuid        NOT NULL UNIQUE,
  website_id       uuid        NOT NULL,
  visitor_id       text        NOT NULL,
  provider         text        NOT NULL,
  -- { email, domain, company } as known when queued
  input            jsonb       NOT NULL,
  -- queued → running → done | failed | cancelled
  status           text        NOT NULL DEFAULT 'queued',
  attempts         integer     NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  deadline_at      timestamptz NOT NULL,
  claimed_by       text,
  claimed_at       timestamptz,
  last_error       text,
  created_at       timestamptz NOT NULL,
  finished_at      timestamptz
);
CREATE INDEX enrichment_jobs_due ON enrichment_jobs (next_attempt_at) WHERE status = 'queued';
CREATE INDEX enrichment_jobs_visitor ON enrichment_jobs (website_id, visitor_id);

-- Per-provider rate limits shared by every worker process: a token bucket per provider.
CREATE TABLE enrichment_rate_limits (
  provider    text             PRIMARY KEY,
  tokens      double precision NOT NULL,
  updated_at  timestamptz      NOT NULL
);

-- Webhook deliveries: one per endpoint per event, retried with back-off; each try is logged.
CREATE TABLE webhook_deliveries (
  delivery_id      uuid        PRIMARY KEY,
  endpoint_id      uuid        NOT NULL,
  website_id       uuid        NOT NULL,
  visitor_id       text,
  source_event_id  uuid        NOT NULL,
  -- Standard Webhooks: the message id (webhook-id) and type
  message_id       text        NOT NULL,
  event_type       text        NOT NULL,
  payload          jsonb       NOT NULL,
  -- queued → sending → delivered | failed
  status           text        NOT NULL DEFAULT 'queued',
  attempts         integer     NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  claimed_by       text,
  claimed_at       timestamptz,
  last_status_code integer,
  last_error       text,
  created_at       timestamptz NOT NULL,
  delivered_at     timestamptz,
  UNIQUE (endpoint_id, source_event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'queued';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_visitor ON webhook_deliveries (website_id, visitor_id);

CREATE TABLE webhook_delivery_attempts (
  delivery_id   uuid        NOT NULL,
  attempt       integer     NOT NULL,
  attempted_at  timestamptz NOT NULL,
  status_code   integer,
  error         text,
  duration_ms   integer     NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);

-- ── the log: the latest identification choice of a visitor, found fast ───────────────────────────
-- Ingest and the enrichment worker ask "does this visitor's latest choice still allow
-- identification?" before anything is taken. Only choices on banners that offer identification are
-- indexed, so websites without lead identification pay nothing on the consent insert path.
CREATE INDEX events_identification_choices ON events (stream_id, position)
  WHERE type IN ('ConsentGiven', 'ConsentDeclined') AND (data->'offered') ? 'identification';
