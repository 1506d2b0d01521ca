// Reads of the site-content read model.
import { defaultSiteContent, SiteContent } from '@consentry/events';
import type { Queryable } from '@consentry/infra';
import { siteContentKey } from './projection';

/** The public site's content: as last saved, else the defaults of events/site-content.ts. */
export async function getSiteContent(db: Queryable): Promise<SiteContent> {
  const { rows } = await db.query<{ content: unknown }>({
    name: 'get-site-content',
    text: 'SELECT content FROM site_content WHERE key = $1',
    values: [siteContentKey],
  });
  const row = rows[0];
  if (!row) return defaultSiteContent;
  // Stored from a validated event; parsed again so the type is checked rather than asserted.
  const parsed = SiteContent.safeParse(row.content);
  return parsed.success ? parsed.data : defaultSiteContent;
}
