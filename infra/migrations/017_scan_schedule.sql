-- Scheduled cookie scans: every website is scanned every scan_interval_days (monthly unless the owner
-- says otherwise; 0 schedules none).
ALTER TABLE websites ADD COLUMN scan_interval_days integer NOT NULL DEFAULT 30;
