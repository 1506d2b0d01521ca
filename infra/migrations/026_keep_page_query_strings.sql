-- Whether ingest keeps the query strings of the page addresses it records (WebsiteSettingsChanged
-- .keepPageQueryStrings; docs/ingest-protocol.md, "Page addresses"). Off: stripped at ingest.
ALTER TABLE websites ADD COLUMN keep_page_query_strings boolean NOT NULL DEFAULT false;
