-- Placeholder reserved for: dead letters (projector runtime). Migration ids must be consecutive (postgres-migrations),
-- so this file exists until its owner writes it (replace this whole file; keep the number).
SELECT 1;
