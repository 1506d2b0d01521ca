-- Read model of the consent-stats projection: accepted and declined counts per website per day
-- (UTC, by the server's receive time). Totals for any range are sums over days.
CREATE TABLE consent_stats_daily (
  website_id  uuid   NOT NULL,
  day         date   NOT NULL,
  accepted    bigint NOT NULL DEFAULT 0,
  declined    bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day)
);
