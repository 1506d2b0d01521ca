// Branding: each owner's company name, colour and logo (shown on their websites' banners), and the
// installation's (shown on the public site). Inline, so a saved branding shows at once.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const installationBrandingKey = 'installation';

export const brandingProjection: Projection = {
  name: 'branding',
  canHandle: ['BrandingChanged'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type !== 'BrandingChanged') continue;
      const { ownerId, companyName, primaryColor, logoUrl, changedAt } = event.data;
      await tx.query({
        name: 'branding-change',
        text: `INSERT INTO branding (owner_key, company_name, primary_color, logo_url, updated_at)
               VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (owner_key) DO UPDATE
                 SET company_name = $2, primary_color = $3, logo_url = $4, updated_at = $5`,
        values: [ownerId ?? installationBrandingKey, companyName, primaryColor, logoUrl, changedAt],
      });
    }
  },

  tables: ['branding'],
};
