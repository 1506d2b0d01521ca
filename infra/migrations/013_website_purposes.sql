-- Granular consent: the purposes each website's banner asks for, the services listed under them, and
-- how long a choice stands. Websites from before purposes existed asked for these three (what their
-- all-or-nothing banner covered), listed no services and kept a choice until the policy changed;
-- 12 months is the lifetime a new website starts with, and the one old websites now get.
ALTER TABLE websites
  ADD COLUMN purposes text[] NOT NULL DEFAULT '{preferences,analytics,marketing}',
  ADD COLUMN services jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN consent_lifetime_months integer NOT NULL DEFAULT 12;
