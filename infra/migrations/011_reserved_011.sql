-- Placeholder reserved for: plan quota. Migration ids must be consecutive (postgres-migrations),
-- so this file exists until its owner writes it (replace this whole file; keep the number).
SELECT 1;
