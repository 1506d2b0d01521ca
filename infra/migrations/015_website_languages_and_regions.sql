-- Languages and regions: the banner's language for visitors whose languages have no texts, the owner's
-- own wording per language, the owner's consent rule per region, and whether to ask for consent
-- everywhere. Existing websites spoke English and asked everyone (their banner had no regions); they
-- now get the defaults by region (opt-out in the US opt-out states), as a new website does.
ALTER TABLE websites
  ADD COLUMN default_language text NOT NULL DEFAULT 'en',
  ADD COLUMN text_overrides jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN region_rules jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN force_opt_in boolean NOT NULL DEFAULT false;
