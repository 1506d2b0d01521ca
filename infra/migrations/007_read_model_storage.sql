-- Storage of the hot aggregate read models. Projectors update the same few rows (per website per
-- day) in every batch: room on each page (fillfactor) keeps those updates HOT, so old versions are
-- pruned in place instead of piling up, and autovacuum visits after a fixed number of changes
-- rather than a share of a table that stays small.
ALTER TABLE consent_stats_daily SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000,
                                     autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 2000);
ALTER TABLE website_activity SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000);
ALTER TABLE analytics_daily SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000);
ALTER TABLE consent_dimensions_daily SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000);
ALTER TABLE banner_impressions_daily SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000);
