-- Read model of the consent-purposes projection: per website, UTC day (server receive time) and
-- method (accept_all, reject_all, custom, gpc, jurisdiction_default), how many choices were made and,
-- for each optional purpose, how often the banner offered it and how often it was granted. Acceptance
-- of a purpose over any range is granted / offered summed over days.
CREATE TABLE consent_purposes_daily (
  website_id              uuid   NOT NULL,
  day                     date   NOT NULL,
  method                  text   NOT NULL,
  choices                 bigint NOT NULL DEFAULT 0,
  preferences_offered     bigint NOT NULL DEFAULT 0,
  preferences_granted     bigint NOT NULL DEFAULT 0,
  analytics_offered       bigint NOT NULL DEFAULT 0,
  analytics_granted       bigint NOT NULL DEFAULT 0,
  marketing_offered       bigint NOT NULL DEFAULT 0,
  marketing_granted       bigint NOT NULL DEFAULT 0,
  identification_offered  bigint NOT NULL DEFAULT 0,
  identification_granted  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day, method)
);

-- Purge summaries already reflected in consent_purposes_daily (see consent_stats_purges).
CREATE TABLE consent_purposes_purges (purge_batch_id uuid PRIMARY KEY);

-- Consent records name the purposes granted (in canonical order), how they were chosen and the rule
-- that applied. Every row already here came from a choice made before purposes existed, so it gets
-- what the consent events' version 1 upcaster gives it: an acceptance granted preferences, analytics
-- and marketing; a decline none (by GPC or on the banner); the rule was opt-in, the region unrecorded.
ALTER TABLE consent_records
  ADD COLUMN offered text[] NOT NULL DEFAULT '{preferences,analytics,marketing}',
  ADD COLUMN purposes text[] NOT NULL DEFAULT '{}',
  ADD COLUMN method text NOT NULL DEFAULT 'reject_all',
  ADD COLUMN rule text NOT NULL DEFAULT 'opt_in',
  ADD COLUMN region text;
UPDATE consent_records
   SET purposes = CASE WHEN choice = 'accepted' THEN '{preferences,analytics,marketing}'::text[] ELSE '{}' END,
       method = CASE WHEN choice = 'accepted' THEN 'accept_all' WHEN source = 'gpc' THEN 'gpc' ELSE 'reject_all' END;
ALTER TABLE consent_records
  ALTER COLUMN offered DROP DEFAULT,
  ALTER COLUMN purposes DROP DEFAULT,
  ALTER COLUMN method DROP DEFAULT,
  ALTER COLUMN rule DROP DEFAULT;
