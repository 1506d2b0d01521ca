-- The sign-in throttle's tallies (services/api/src/auth/sign-in-throttle.ts), shared by every api
-- process of the installation, so that N processes do not give a guesser N times the attempts.
-- A row is one tally: per account and address, per address, or per account. It is keyed by the
-- SHA-256 (hex) of the tally's key, never by the address or account name itself. Tallies are not
-- history: plain rows, updated in place and deleted once forgotten.
CREATE TABLE sign_in_tallies (
  key_hash        text        PRIMARY KEY CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  -- 0: every failure was taken back (a success or a withdrawn attempt); the rules see no tally.
  failures        integer     NOT NULL CHECK (failures >= 0),
  last_failure_at timestamptz NOT NULL
)
-- Every attempt locks its rows with an update that changes no indexed column, refused attempts
-- included: room on each page keeps those updates HOT, so their old versions are pruned in place.
WITH (fillfactor = 50);

-- Tallies are forgotten 15 minutes after their latest failure; sweeps delete them oldest first.
CREATE INDEX sign_in_tallies_last_failure_at ON sign_in_tallies (last_failure_at);
