-- The visitor's latest choice, whatever banner it was made on, found fast. An identification (and
-- each enrichment call) is allowed only by the visitor's latest choice; a withdrawal on a banner that
-- did not offer identification (a widget 1 decline, a stale page's banner) counts too, so the index
-- of choices on banners that offered identification (migration 018) no longer answers the question.
-- This one indexes every choice (one more entry per consent, none per page view) and replaces it.
CREATE INDEX events_consent_choices ON events (stream_id, position)
  WHERE type IN ('ConsentGiven', 'ConsentDeclined');

DROP INDEX events_identification_choices;
