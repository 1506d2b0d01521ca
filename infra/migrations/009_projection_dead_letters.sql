-- Dead letters: events a projection could not apply (docs/architecture.md, "Dead letters").
-- A projector that meets such an event sets it aside here, in the same transaction that moves its
-- checkpoint past it, and goes on: one event that cannot be projected never stops a read model for
-- everyone else. The event itself stays in the log untouched; `consentry dead-letters retry` or a
-- replay applies it again once the projection can, and marks the row resolved.
CREATE TABLE projection_dead_letters (
  projection       text        NOT NULL,
  event_id         uuid        NOT NULL,
  transaction_id   xid8        NOT NULL,
  position         bigint      NOT NULL,
  stream_id        text        NOT NULL,
  type             text        NOT NULL,
  error            text        NOT NULL,
  attempts         integer     NOT NULL DEFAULT 1,
  first_failed_at  timestamptz NOT NULL DEFAULT now(),
  last_failed_at   timestamptz NOT NULL DEFAULT now(),
  resolved_at      timestamptz,
  CONSTRAINT projection_dead_letters_pkey PRIMARY KEY (projection, event_id)
);

-- The open ones, per projection: what the gauge counts and admins are shown.
CREATE INDEX projection_dead_letters_open ON projection_dead_letters (projection, transaction_id, position)
  WHERE resolved_at IS NULL;
