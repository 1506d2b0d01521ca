-- Registrations waiting for their email to be confirmed (when SMTP_URL is set): the account is
-- created only when the link sent to the address is opened, so registering never tells anyone
-- whether an address already has an account (docs/architecture.md, "Accounts"). Only the SHA-256 of
-- the link's token is kept; the password is kept as its argon2id hash, as for accounts.
CREATE TABLE pending_registrations (
  token_hash     bytea       PRIMARY KEY,
  email          text        NOT NULL UNIQUE,
  password_hash  text        NOT NULL,
  first_name     text,
  last_name      text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);
