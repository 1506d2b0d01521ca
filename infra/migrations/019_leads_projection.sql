-- What the leads read side needs beyond migration 018 (docs/identification.md).

-- The consent-records projection fills the spec's `email` field on a visitor's records once they
-- identify themselves (and an erasure empties it again): both find the visitor's rows by website and
-- visitor, and so does a subject export.
CREATE INDEX consent_records_visitor ON consent_records (website_id, visitor_id, received_at);

-- The leads projection's fold state, kept on the lead:
--  recent_pages: the lead's latest page views, [[pageviewId, timeline position, largest visibleMs,
--    [engagement kinds]], …] (at most 50), so a PageHidden or EngagementRecorded finds the page view
--    it belongs to;
--  self_identified: the visitor identified themselves (a form or the site's call), even once an
--    erasure took the email away, so a later network match never counts as a second identification.
ALTER TABLE leads
  ADD COLUMN recent_pages    jsonb   NOT NULL DEFAULT '[]',
  ADD COLUMN self_identified boolean NOT NULL DEFAULT false;

-- The reactors' own memory (their projections' tables: a replay empties and rebuilds them, never the
-- queues): the visitors whose latest choice allows identification. A reactor must not read another
-- async projection's tables (it cannot know how far that one has got), so each keeps its own.
CREATE TABLE enrichment_queue_visitors (
  website_id       uuid NOT NULL,
  visitor_id       text NOT NULL,
  -- The latest choice (it allows identification).
  consent_event_id uuid NOT NULL,
  PRIMARY KEY (website_id, visitor_id)
);

-- The webhook dispatcher also remembers who the visitor said they are (for lead.enriched and
-- consent.withdrawn payloads): the latest identification, emptied by an erasure.
CREATE TABLE webhook_dispatch_visitors (
  website_id          uuid NOT NULL,
  visitor_id          text NOT NULL,
  consent_event_id    uuid NOT NULL,
  identified_event_id uuid,
  email               text,
  name                text,
  company             text,
  PRIMARY KEY (website_id, visitor_id)
);
