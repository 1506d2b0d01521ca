-- Invitation links (docs/architecture.md, "Accounts"). An admin's invitation reserves the email
-- (user_credentials without a password); only the holder of its link can complete it: the link
-- carries a random token, of which only the SHA-256 is kept, valid once and until it expires. A new
-- invitation for the same person replaces the old link. Secrets, not history: a plain table.
CREATE TABLE invitation_tokens (
  token_hash  bytea       PRIMARY KEY,
  user_id     uuid        NOT NULL REFERENCES user_credentials (user_id) ON DELETE CASCADE,
  created_by  text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);

CREATE INDEX invitation_tokens_user ON invitation_tokens (user_id);
