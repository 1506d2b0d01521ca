// The public site's content as admins last saved it in the website editor. Inline, so the editor
// and the landing page show a save at once.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const siteContentKey = 'installation';

export const siteContentProjection: Projection = {
  name: 'site-content',
  canHandle: ['SiteContentChanged'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type !== 'SiteContentChanged') continue;
      const { changedBy: _changedBy, changedAt, ...content } = event.data;
      await tx.query({
        name: 'site-content-change',
        text: `INSERT INTO site_content (key, content, updated_at) VALUES ($1, $2, $3)
               ON CONFLICT (key) DO UPDATE SET content = $2, updated_at = $3`,
        values: [siteContentKey, JSON.stringify(content), changedAt],
      });
    }
  },

  tables: ['site_content'],
};
