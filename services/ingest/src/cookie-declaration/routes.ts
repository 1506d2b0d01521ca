// The public cookie declaration of a website, at `/cookies/{embedCode}` (a page; `?embed=1` for an
// iframe on the owner's own cookie policy) and `/api/cookie-declaration/{embedCode}` (JSON): what the
// latest scan found, by purpose. Public and cacheable, like the widget's config.
import type { Db } from '@consentry/infra';
import { findBranding, getLatestScanItems, getWebsiteByEmbedCode } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { embedCodeParams, errorAnswer } from '../collect/schemas';
import { IngestError } from '../errors';
import { buildCookieDeclaration, renderCookieDeclaration, type CookieDeclaration } from './declaration';

/** The declaration page's CSP, less frame-ancestors (which depends on the variant). */
const declarationPolicy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export const cookieDeclarationRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  async function declarationOf(embedCode: string): Promise<CookieDeclaration> {
    const website = await getWebsiteByEmbedCode(pool, embedCode);
    if (!website) throw new IngestError(404, 'UNKNOWN_EMBED_CODE', 'Unknown embed code');
    if (!website.isActive) throw new IngestError(403, 'WEBSITE_INACTIVE', 'This website is not active');
    const [branding, scanned] = await Promise.all([findBranding(pool, website.ownerId), getLatestScanItems(pool, website.id)]);
    return buildCookieDeclaration({
      companyName: branding?.companyName ?? website.name,
      domain: website.domain,
      scannedAt: scanned?.completedAt ?? null,
      items: scanned?.items ?? [],
      services: website.services,
    });
  }

  app.get(
    '/api/cookie-declaration/:embedCode',
    { schema: { params: embedCodeParams, response: { 200: z.unknown(), 403: errorAnswer, 404: errorAnswer } } },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300');
      return declarationOf(request.params.embedCode);
    },
  );

  app.get(
    '/cookies/:embedCode',
    { schema: { params: embedCodeParams, querystring: z.object({ embed: z.enum(['0', '1']).optional() }) } },
    async (request, reply) => {
      const embed = request.query.embed === '1';
      const html = renderCookieDeclaration(await declarationOf(request.params.embedCode), embed);
      if (!embed) reply.header('x-frame-options', 'DENY');
      return reply
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        // Only its own inline stylesheet. Only the embed variant may be framed, by any page (the
        // owner's cookie policy); the page itself never, so nobody can dress it up as theirs.
        .header('content-security-policy', `${declarationPolicy}; frame-ancestors ${embed ? '*' : "'none'"}`)
        .type('text/html; charset=utf-8')
        .send(html);
    },
  );
};
