-- Read model of the consent-records projection: one row per consent choice, the table behind
-- recent activity, export and (later) receipts. Personal data lives here as in the log, so purges
-- and erasures must reach this table too.
CREATE TABLE consent_records (
  event_id        uuid        PRIMARY KEY,
  website_id      uuid        NOT NULL,
  visitor_id      text        NOT NULL,
  choice          text        NOT NULL CHECK (choice IN ('accepted', 'declined')),
  source          text        NOT NULL,
  policy_version  text        NOT NULL,
  received_at     timestamptz NOT NULL,
  occurred_at     timestamptz NOT NULL,
  ip_address      text,
  user_agent      text,
  device_class    text        NOT NULL,
  country         text,
  city            text,
  email           text,
  page_url        text,
  language        text
);
-- Newest first, per website and across all of them.
CREATE INDEX consent_records_website_received ON consent_records (website_id, received_at DESC, event_id DESC);
CREATE INDEX consent_records_received ON consent_records (received_at DESC, event_id DESC);

-- Website activity: when the ledger last received anything from each website (installation
-- verification, the "stopped sending events" recommendation).
CREATE TABLE website_activity (
  website_id     uuid        PRIMARY KEY,
  last_event_at  timestamptz NOT NULL
);

-- Exports of personal data: who exported what, when (the Recent Exports list). Inline.
CREATE TABLE consent_exports (
  export_id    uuid        PRIMARY KEY,
  user_id      uuid        NOT NULL,
  website_id   uuid,
  format       text        NOT NULL,
  row_count    bigint      NOT NULL,
  exported_at  timestamptz NOT NULL
);
CREATE INDEX consent_exports_user ON consent_exports (user_id, exported_at DESC);
