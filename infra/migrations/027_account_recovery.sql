-- Owners' account self-service links (docs/architecture.md, "auth/"): password resets (emailed
-- when the owner forgot their password, or created by an admin to hand over) and confirmations of a
-- new email address. Each link carries a random token of which only the SHA-256 is kept, works once
-- and until it expires; a new link of the same kind for the same owner replaces the old one.
-- Secrets, not history: plain tables, gone with the owner's credential.
CREATE TABLE password_reset_tokens (
  token_hash  bytea       PRIMARY KEY,
  user_id     uuid        NOT NULL REFERENCES user_credentials (user_id) ON DELETE CASCADE,
  created_by  text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);

CREATE INDEX password_reset_tokens_user ON password_reset_tokens (user_id);

CREATE TABLE email_change_tokens (
  token_hash  bytea       PRIMARY KEY,
  user_id     uuid        NOT NULL UNIQUE REFERENCES user_credentials (user_id) ON DELETE CASCADE,
  new_email   text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
