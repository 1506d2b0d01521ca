// Reads of the branding read model.
import { defaultBranding, type BrandingSettings } from '@consentry/events';
import type { Queryable } from '@consentry/infra';
import { installationBrandingKey } from './projection';

/** An owner's branding (null owner: the installation's), or null when none was saved. */
export async function findBranding(db: Queryable, ownerId: string | null): Promise<BrandingSettings | null> {
  const { rows } = await db.query<{ company_name: string; primary_color: string; logo_url: string | null }>({
    name: 'find-branding',
    text: 'SELECT company_name, primary_color, logo_url FROM branding WHERE owner_key = $1',
    values: [ownerId ?? installationBrandingKey],
  });
  const row = rows[0];
  return row ? { companyName: row.company_name, primaryColor: row.primary_color, logoUrl: row.logo_url } : null;
}

/** The installation's branding with the spec's defaults ('Consentry', #2563eb, no logo). */
export async function getInstallationBranding(db: Queryable): Promise<BrandingSettings> {
  return (await findBranding(db, null)) ?? defaultBranding;
}
