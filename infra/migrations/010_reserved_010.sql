-- Placeholder reserved for: sign-in throttling and invitations. Migration ids must be consecutive (postgres-migrations),
-- so this file exists until its owner writes it (replace this whole file; keep the number).
SELECT 1;
