-- Read models of the websites and branding projections (inline: written in the append's own
-- transaction, so an owner reads their own writes at once).
CREATE TABLE websites (
  id                  uuid        PRIMARY KEY,
  owner_id            uuid        NOT NULL,
  name                text        NOT NULL,
  domain              text        NOT NULL,
  embed_code          text        NOT NULL UNIQUE,
  is_active           boolean     NOT NULL DEFAULT true,
  retention_months    integer     NOT NULL DEFAULT 24,
  ip_address_mode     text        NOT NULL DEFAULT 'truncated',
  banner_position     text        NOT NULL DEFAULT 'bottom',
  banner_theme        text        NOT NULL DEFAULT 'light',
  policy_version      text        NOT NULL DEFAULT '1',
  privacy_policy_url  text,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL
);
CREATE INDEX websites_owner_id ON websites (owner_id);

-- One row per owner, plus the installation's own ('installation', shown on the public site).
CREATE TABLE branding (
  owner_key      text        PRIMARY KEY,
  company_name   text        NOT NULL,
  primary_color  text        NOT NULL,
  logo_url       text,
  updated_at     timestamptz NOT NULL
);
