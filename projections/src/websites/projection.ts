// Websites: the owner's websites with their banner settings, kept inline (same transaction as the
// append) so the api reads its own writes, and ingest resolves embed codes from it.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const websitesProjection: Projection = {
  name: 'websites',
  canHandle: ['WebsiteAdded', 'WebsiteRemoved', 'WebsiteActivationChanged', 'WebsiteSettingsChanged'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      switch (event.type) {
        case 'WebsiteAdded': {
          const { websiteId, ownerId, name, domain, embedCode, addedAt } = event.data;
          await tx.query({
            name: 'websites-add',
            text: `INSERT INTO websites (id, owner_id, name, domain, embed_code, created_at, updated_at)
                   VALUES ($1, $2, $3, $4, $5, $6, $6)
                   ON CONFLICT (id) DO UPDATE SET owner_id = $2, name = $3, domain = $4, embed_code = $5`,
            values: [websiteId, ownerId, name, domain, embedCode, addedAt],
          });
          break;
        }
        case 'WebsiteRemoved':
          await tx.query({ name: 'websites-remove', text: 'DELETE FROM websites WHERE id = $1', values: [event.data.websiteId] });
          break;
        case 'WebsiteActivationChanged':
          await tx.query({
            name: 'websites-set-active',
            text: 'UPDATE websites SET is_active = $2, updated_at = $3 WHERE id = $1',
            values: [event.data.websiteId, event.data.isActive, event.data.changedAt],
          });
          break;
        case 'WebsiteSettingsChanged': {
          const data = event.data;
          // Only the settings the event carries change; absent ones keep their value.
          await tx.query({
            name: 'websites-change-settings',
            text: `UPDATE websites SET
                     retention_months   = coalesce($2, retention_months),
                     ip_address_mode    = coalesce($3, ip_address_mode),
                     banner_position    = coalesce($4, banner_position),
                     banner_theme       = coalesce($5, banner_theme),
                     policy_version     = coalesce($6, policy_version),
                     privacy_policy_url = CASE WHEN $7::boolean THEN $8 ELSE privacy_policy_url END,
                     purposes           = coalesce($10::text[], purposes),
                     services           = coalesce($11::jsonb, services),
                     consent_lifetime_months = coalesce($12, consent_lifetime_months),
                     default_language   = coalesce($13, default_language),
                     text_overrides     = coalesce($14::jsonb, text_overrides),
                     region_rules       = coalesce($15::jsonb, region_rules),
                     force_opt_in       = coalesce($16, force_opt_in),
                     scan_interval_days = coalesce($17, scan_interval_days),
                     identification_forms = coalesce($18, identification_forms),
                     monthly_resolution_cap = CASE WHEN $19::boolean THEN $20::integer ELSE monthly_resolution_cap END,
                     keep_page_query_strings = coalesce($21, keep_page_query_strings),
                     updated_at         = $9
                   WHERE id = $1`,
            values: [
              data.websiteId,
              data.retentionMonths ?? null,
              data.ipAddressMode ?? null,
              data.bannerPosition ?? null,
              data.bannerTheme ?? null,
              data.policyVersion ?? null,
              data.privacyPolicyUrl !== undefined,
              data.privacyPolicyUrl ?? null,
              data.changedAt,
              data.purposes ?? null,
              data.services === undefined ? null : JSON.stringify(data.services),
              data.consentLifetimeMonths ?? null,
              data.defaultLanguage ?? null,
              data.textOverrides === undefined ? null : JSON.stringify(data.textOverrides),
              data.regionRules === undefined ? null : JSON.stringify(data.regionRules),
              data.forceOptIn ?? null,
              data.scanIntervalDays ?? null,
              data.identificationForms ?? null,
              // null sets it unlimited; absent keeps it.
              data.monthlyResolutionCap !== undefined,
              data.monthlyResolutionCap ?? null,
              data.keepPageQueryStrings ?? null,
            ],
          });
          break;
        }
        default:
          break;
      }
    }
  },

  tables: ['websites'],
};
