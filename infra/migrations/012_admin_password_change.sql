-- An admin whose password was generated at the first start (and shown once on the terminal) must
-- choose a new one at their first sign-in; until then their session holds no admin power.
ALTER TABLE admin_credentials ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
