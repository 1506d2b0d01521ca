// Branding: the installation's (admins edit it; the public site shows it) and each owner's own (shown
// on their websites' banners). Saving appends a BrandingChanged; the inline projection makes it
// readable at once. Logos are checked as real images of at most 2 MB.
import { BrandingSettings, brandingDecider, brandingStreamId, defaultBranding, hexColor, maxLogoBytes } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { findBranding, getInstallationBranding } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAdmin, signedInOwner } from '../access';
import { handleApiCommand } from '../domain/commands';
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
  await handleApiCommand(
    pool,
    brandingStreamId(ownerId),
    brandingDecider,
    { type: 'ChangeBranding', data: { ownerId, settings, changedBy }, metadata: { now: new Date().toISOString() } },
    // A save replaces the whole branding: the last save wins, also over one saved meanwhile.
    { metadata: { actor: changedBy }, retriesOnConflict: 3 },
  );
}

export const brandingRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/site/branding',
    { config: { access: 'public' }, schema: { tags: ['public site'], summary: "The installation's branding (public)", response: { 200: brandingAnswer } } },
    async () => getInstallationBranding(pool),
  );

  app.get(
    '/api/admin/branding',
    { config: { access: 'admin' }, schema: { tags: ['admin'], summary: "The installation's branding", response: { 200: brandingAnswer, ...errorsFor(401, 403) } } },
    async () => getInstallationBranding(pool),
  );

  app.put(
    '/api/admin/branding',
    {
      bodyLimit: brandingBodyLimit,
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Save the installation's branding",
        description: 'A logo over 2 MB answers 413 `FILE_TOO_LARGE`; anything but a real PNG, JPEG, GIF, WebP or safe SVG answers 400 `INVALID_FILE_TYPE`.',
        body: brandingBody,
        response: { 200: brandingAnswer, ...errorsFor(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const admin = signedInAdmin(request);
      await saveBranding(pool, null, request.body, admin);
      return getInstallationBranding(pool);
    },
  );

  app.get(
    '/api/branding',
    { config: { access: 'owner' }, schema: { tags: ['branding'], summary: "The owner's own banner branding", response: { 200: brandingAnswer, ...errorsFor(401, 403) } } },
    async (request) => (await findBranding(pool, signedInOwner(request).id)) ?? defaultBranding,
  );

  app.put(
    '/api/branding',
    {
      bodyLimit: brandingBodyLimit,
      config: { access: 'owner' },
      schema: {
        tags: ['branding'],
        summary: "Save the owner's own banner branding",
        body: brandingBody,
        response: { 200: brandingAnswer, ...errorsFor(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const user = signedInOwner(request);
      await saveBranding(pool, user.id, request.body, user.id);
      return (await findBranding(pool, user.id)) ?? defaultBranding;
    },
  );
};
