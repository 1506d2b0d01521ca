-- Accounts and owner-side state of the owner and admin api.
--
-- Secrets, not history (DESIGN.md, "The event log" item 1): credentials, login sessions and the
-- session-signing secret live in plain tables that are updated and deleted in place. Nothing here is
-- an event and nothing here is replayed.

-- One row per owner account, created when a person registers or is invited (password_hash NULL until
-- the invited person registers). The unique email is the one authority on "this email is taken";
-- emails are stored lower-cased.
CREATE TABLE user_credentials (
  user_id        uuid        PRIMARY KEY,
  email          text        NOT NULL UNIQUE,
  password_hash  text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE admin_credentials (
  username       text        PRIMARY KEY,
  password_hash  text        NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Login sessions (@fastify/session). Keyed by the SHA-256 of the session id, so a copy of this table
-- does not hand out live sessions. user_id and admin_username are copied out of the session data so
-- deleting an account or an admin can end their sessions at once.
CREATE TABLE sessions (
  id_hash         text        PRIMARY KEY,
  user_id         uuid,
  admin_username  text,
  data            jsonb       NOT NULL,
  expires_at      timestamptz NOT NULL
);
CREATE INDEX sessions_expires_at ON sessions (expires_at);
CREATE INDEX sessions_user_id ON sessions (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX sessions_admin_username ON sessions (admin_username) WHERE admin_username IS NOT NULL;

-- Generated secrets kept across restarts (the session-signing secret when SESSION_SECRET is unset).
CREATE TABLE secrets (
  name        text        PRIMARY KEY,
  value       text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Read models of inline projections (written in the append's own transaction).

-- Owners, registered or invited, with their subscription as admins set it. Deleted users are gone.
CREATE TABLE users (
  id                      uuid        PRIMARY KEY,
  email                   text        NOT NULL,
  first_name              text,
  last_name               text,
  status                  text        NOT NULL CHECK (status IN ('invited', 'registered')),
  subscription_tier       text        NOT NULL,
  subscription_status     text        NOT NULL,
  max_websites            integer     NOT NULL,
  max_consents_per_month  integer     NOT NULL,
  is_active               boolean     NOT NULL DEFAULT true,
  invited_at              timestamptz,
  registered_at           timestamptz,
  updated_at              timestamptz NOT NULL
);
CREATE INDEX users_email ON users (lower(email));

-- The published subscription plans (free, basic, pro, business).
CREATE TABLE subscription_plans (
  id                      text        PRIMARY KEY,
  display_name            text        NOT NULL,
  description             text        NOT NULL,
  price_cents             integer     NOT NULL,
  max_websites            integer     NOT NULL,
  max_consents_per_month  integer     NOT NULL,
  features                jsonb       NOT NULL,
  published_at            timestamptz NOT NULL
);

-- The public site's content; one row ('installation') once an admin saved it.
CREATE TABLE site_content (
  key         text        PRIMARY KEY,
  content     jsonb       NOT NULL,
  updated_at  timestamptz NOT NULL
);
