-- Read models of site analytics and of the consent dimensions the recommendations need
-- (docs/analytics.md, docs/recommendations.md). Every table is keyed by website and day (or day
-- bucket), so a date range is an index range scan over a few rows per day, never a scan of the log.

-- ── analytics projection ────────────────────────────────────────────────────────────────────────

-- Per website per UTC day. Visit columns (visits, visit_pageviews, bounces, visit_time_ms) are
-- attributed to the day the visit started; pageviews and engagement counts to the day they happened.
CREATE TABLE analytics_daily (
  website_id                uuid   NOT NULL,
  day                       date   NOT NULL,
  pageviews                 bigint NOT NULL DEFAULT 0,
  visits                    bigint NOT NULL DEFAULT 0,
  visit_pageviews           bigint NOT NULL DEFAULT 0,
  bounces                   bigint NOT NULL DEFAULT 0,
  visit_time_ms             bigint NOT NULL DEFAULT 0,
  location_map_views        bigint NOT NULL DEFAULT 0,
  opening_hours_views       bigint NOT NULL DEFAULT 0,
  contact_form_submissions  bigint NOT NULL DEFAULT 0,
  tap_to_call_actions       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day)
);

-- Page views per path (top pages) and visits per referrer domain (top referrers; by the day the
-- visit started), rolled up: each count is stored for its day (span 1), its 7-day and its 28-day
-- block (aligned to 1970-01-01), so a range reads the few buckets that exactly cover it instead of a
-- row per path per day. Paths are stored truncated to 512 characters so a key always fits a btree
-- entry. Byte order ("C"): ties in top lists sort the same whatever the database's locale.
CREATE TABLE analytics_pages (
  website_id  uuid     NOT NULL,
  span        smallint NOT NULL,
  first_day   date     NOT NULL,
  path        text     COLLATE "C" NOT NULL,
  views       bigint   NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, span, first_day, path)
);

CREATE TABLE analytics_referrers (
  website_id  uuid     NOT NULL,
  span        smallint NOT NULL,
  first_day   date     NOT NULL,
  domain      text     COLLATE "C" NOT NULL,
  visits      bigint   NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, span, first_day, domain)
);

-- Visits per device class per day, by the day the visit started.
CREATE TABLE analytics_daily_devices (
  website_id    uuid   NOT NULL,
  day           date   NOT NULL,
  device_class  text   NOT NULL,
  visits        bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day, device_class)
);

-- Unique visitors for any range, exactly, without a distinct scan: each visitor-day is counted in
-- the row of (that day, the previous day the same visitor was seen; -infinity the first time).
-- Visitors of [from, to] = sum(visitors) over days in [from, to] whose previous_day < from: each
-- visitor is counted once, on their first day within the range. Rows per website per day are at
-- most the number of earlier days, so a 90-day range reads a few thousand small rows.
CREATE TABLE analytics_visitor_days (
  website_id    uuid   NOT NULL,
  day           date   NOT NULL,
  previous_day  date   NOT NULL,
  visitors      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day, previous_day)
);

-- The minimal per-visitor state the projection needs: whether the visitor's latest choice on the
-- website is a decline (their analytics are then ignored), the last day they were seen (unique
-- visitors), and their current visit (30-minute rule, bounce, time on site). The key is
-- md5(website_id || ':' || visitor_id) as a uuid: fixed width, and not linkable across websites.
-- Updated in place on every batch, hence the free space for HOT updates.
CREATE TABLE analytics_visitors (
  visitor_key       uuid     PRIMARY KEY,
  website_id        uuid     NOT NULL,
  declined          boolean  NOT NULL DEFAULT false,
  last_seen_day     date,
  last_activity_ms  bigint,
  visit_day         date,
  visit_pageviews   integer  NOT NULL DEFAULT 0,
  visit_engaged     boolean  NOT NULL DEFAULT false,
  -- [[pageviewId, largest visibleMs], …] of the current visit, oldest first, at most 50.
  visit_pages       jsonb    NOT NULL DEFAULT '[]'::jsonb
) WITH (fillfactor = 70);

-- ── consent-dimensions projection ───────────────────────────────────────────────────────────────

-- Choices per website per UTC day (server receive time) per device class and source.
CREATE TABLE consent_dimensions_daily (
  website_id    uuid   NOT NULL,
  day           date   NOT NULL,
  device_class  text   NOT NULL,
  source        text   NOT NULL,
  accepted      bigint NOT NULL DEFAULT 0,
  declined      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day, device_class, source)
);

-- Anonymous banner impressions per website per day per position, theme and device class.
CREATE TABLE banner_impressions_daily (
  website_id    uuid   NOT NULL,
  day           date   NOT NULL,
  position      text   NOT NULL,
  theme         text   NOT NULL,
  device_class  text   NOT NULL,
  impressions   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (website_id, day, position, theme, device_class)
);
