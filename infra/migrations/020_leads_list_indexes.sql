-- The leads list's filters, each read in its sort order (bench:leads, 1,000,000 leads): a company
-- (exact, case-insensitive) and a consent status, both newest-seen first. Without them, a company
-- shared by one lead in ten, or the few withdrawn leads, meant reading and sorting every match.
CREATE INDEX leads_company_last_seen ON leads (website_id, lower(display_company), last_seen DESC, visitor_id)
  WHERE identified_at IS NOT NULL;
CREATE INDEX leads_status_last_seen ON leads (website_id, consent_status, last_seen DESC, visitor_id)
  WHERE identified_at IS NOT NULL;
-- The company prefix index of 018 served a filter that is now exact.
DROP INDEX IF EXISTS leads_company;
