// Branding: the installation's (admins edit it; the public site shows it) and each owner's own (shown
// on their websites' banners). Saving appends a BrandingChanged; the inline projection makes it
// readable at once. Logos are checked as real images of at most 2 MB.
import { BrandingSettings, brandingStreamId, defaultBranding, hexColor, maxLogoBytes } from '@consentry/events';
import { appendToStream, type Db } from '@consentry/infra';
import { findBranding, getInstallationBranding, inlineProjections } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin, requireUser } from '../auth/viewer';
import { errorsFor } from '../schemas';
import { imageUpload } from './image-check';

export const brandingAnswer = z
  .object({ companyName: z.string(), primaryColor: z.string(), logoUrl: z.string().nullable() })
  .meta({ id: 'Branding', description: 'Company name, primary colour (#rrggbb) and logo (an image data URL, or null)' });

const brandingBody = z.object({
  companyName: z.string().trim().pipe(BrandingSettings.shape.companyName),
  primaryColor: hexColor,
  logoUrl: imageUpload(maxLogoBytes).nullable().default(null),
});

/** A 2 MB image is about 2.8 MB of base64; the rest of the body is small. */
const brandingBodyLimit = 3 * 1024 * 1024;

async function saveBranding(pool: Db, ownerId: string | null, settings: BrandingSettings, changedBy: string): Promise<void> {
  await appendToStream(
    pool,
    brandingStreamId(ownerId),
    [{ type: 'BrandingChanged', data: { ...settings, ownerId, changedBy, changedAt: new Date().toISOString() }, metadata: { actor: changedBy } }],
    // A save replaces the whole branding: the last save wins, so no version is expected.
    { expectedVersion: 'any', inlineProjections },
  );
}

export const brandingRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/site/branding',
    { schema: { tags: ['public site'], summary: "The installation's branding (public)", response: { 200: brandingAnswer } } },
    async () => getInstallationBranding(pool),
  );

  app.get(
    '/api/admin/branding',
    { schema: { tags: ['admin'], summary: "The installation's branding", response: { 200: brandingAnswer, ...errorsFor(401, 403) } } },
    async (request) => {
      await requireAdmin(pool, request);
      return getInstallationBranding(pool);
    },
  );

  app.put(
    '/api/admin/branding',
    {
      bodyLimit: brandingBodyLimit,
      schema: {
        tags: ['admin'],
        summary: "Save the installation's branding",
        description: 'A logo over 2 MB answers 413 `FILE_TOO_LARGE`; anything but a real PNG, JPEG, GIF, WebP or safe SVG answers 400 `INVALID_FILE_TYPE`.',
        body: brandingBody,
        response: { 200: brandingAnswer, ...errorsFor(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const admin = await requireAdmin(pool, request);
      await saveBranding(pool, null, request.body, admin);
      return getInstallationBranding(pool);
    },
  );

  app.get(
    '/api/branding',
    { schema: { tags: ['branding'], summary: "The owner's own banner branding", response: { 200: brandingAnswer, ...errorsFor(401, 403) } } },
    async (request) => {
      const user = await requireUser(pool, request);
      return (await findBranding(pool, user.id)) ?? defaultBranding;
    },
  );

  app.put(
    '/api/branding',
    {
      bodyLimit: brandingBodyLimit,
      schema: {
        tags: ['branding'],
        summary: "Save the owner's own banner branding",
        body: brandingBody,
        response: { 200: brandingAnswer, ...errorsFor(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const user = await requireUser(pool, request);
      await saveBranding(pool, user.id, request.body, user.id);
      return (await findBranding(pool, user.id)) ?? defaultBranding;
    },
  );
};
