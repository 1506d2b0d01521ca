// The public site's content: read by the landing page (public) and edited by admins in the website
// editor. Saving appends a SiteContentChanged carrying every field (spec section 3).
import { maxHeroBackgroundBytes, SiteContent } from '@consentry/events';
import { appendToStream, type Db } from '@consentry/infra';
import { getSiteContent, inlineProjections } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../auth/viewer';
import { imageUpload } from '../branding/image-check';
import { errorsFor } from '../schemas';

const contentAnswer = SiteContent.extend({ heroBackgroundImage: z.string().nullable() }).meta({
  id: 'SiteContent',
  description: 'Every text of the public site and its hero background (an image data URL, or null)',
});

const contentBody = SiteContent.extend({ heroBackgroundImage: imageUpload(maxHeroBackgroundBytes).nullable().default(null) });

/** A 5 MB image is about 6.7 MB of base64, plus the texts. */
const contentBodyLimit = 8 * 1024 * 1024;

export const siteContentRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/site/content',
    { schema: { tags: ['public site'], summary: "The public site's content (defaults until an admin saves)", response: { 200: contentAnswer } } },
    async () => getSiteContent(pool),
  );

  app.get(
    '/api/admin/website-content',
    { schema: { tags: ['admin'], summary: "The public site's content", response: { 200: contentAnswer, ...errorsFor(401, 403) } } },
    async (request) => {
      await requireAdmin(pool, request);
      return getSiteContent(pool);
    },
  );

  app.put(
    '/api/admin/website-content',
    {
      bodyLimit: contentBodyLimit,
      schema: {
        tags: ['admin'],
        summary: "Save the public site's content (all fields)",
        body: contentBody,
        response: { 200: contentAnswer, ...errorsFor(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const admin = await requireAdmin(pool, request);
      await appendToStream(
        pool,
        'site-content',
        [{ type: 'SiteContentChanged', data: { ...request.body, changedBy: admin, changedAt: new Date().toISOString() }, metadata: { actor: admin } }],
        // The editor always saves every field: the last save wins, so no version is expected.
        { expectedVersion: 'any', inlineProjections },
      );
      return getSiteContent(pool);
    },
  );
};
