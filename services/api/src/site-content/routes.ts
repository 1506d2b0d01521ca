// The public site's content: read by the landing page (public) and edited by admins in the website
// editor. Saving appends a SiteContentChanged carrying every field (spec section 3).
import { maxHeroBackgroundBytes, SiteContent, siteContentDecider, siteContentStreamId } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { getSiteContent } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAdmin } from '../access';
import { imageUpload } from '../branding/image-check';
import { handleApiCommand } from '../domain/commands';
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
    { config: { access: 'public' }, schema: { tags: ['public site'], summary: "The public site's content (defaults until an admin saves)", response: { 200: contentAnswer } } },
    async () => getSiteContent(pool),
  );

  app.get(
    '/api/admin/website-content',
    { config: { access: 'admin' }, schema: { tags: ['admin'], summary: "The public site's content", response: { 200: contentAnswer, ...errorsFor(401, 403) } } },
    async () => getSiteContent(pool),
  );

  app.put(
    '/api/admin/website-content',
    {
      bodyLimit: contentBodyLimit,
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Save the public site's content (all fields)",
        body: contentBody,
        response: { 200: contentAnswer, ...errorsFor(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const admin = signedInAdmin(request);
      await handleApiCommand(
        pool,
        siteContentStreamId,
        siteContentDecider,
        { type: 'ChangeSiteContent', data: { content: request.body, changedBy: admin }, metadata: { now: new Date().toISOString() } },
        // The editor always saves every field: the last save wins, also over one saved meanwhile.
        { metadata: { actor: admin }, retriesOnConflict: 3 },
      );
      return getSiteContent(pool);
    },
  );
};
