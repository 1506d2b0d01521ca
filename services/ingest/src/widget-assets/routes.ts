// What the widget loads: the script itself, its per-website configuration (branding and policy,
// cacheable), and the owner's logo as an image (the config would otherwise carry up to 2 MB).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { defaultBranding } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { findBranding, getWebsiteByEmbedCode } from '@consentry/projections';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IngestError } from '../errors';
import { embedCodeParams, errorAnswer } from '../collect/schemas';

export interface WidgetAssetOptions {
  readonly pool: Db;
  readonly publicUrl: string;
  /** The built widget (widget/dist/widget.js). */
  readonly widgetScriptPath: string;
  /**
   * How long a website's rendered config is reused. Every visitor's first page view waits for this
   * answer before the banner shows; two queries per visitor would put the database on that path.
   */
  readonly configCacheTtlMs?: number;
}

const widgetConfigAnswer = z.object({
  websiteId: z.string(),
  companyName: z.string(),
  logoUrl: z.string().nullable(),
  primaryColor: z.string(),
  privacyPolicyUrl: z.string().nullable(),
  policyVersion: z.string(),
  position: z.enum(['bottom', 'top']),
  theme: z.enum(['light', 'dark']),
  language: z.string(),
});

function sendCached(request: FastifyRequest, reply: FastifyReply, body: string | Buffer, contentType: string, maxAgeSeconds: number) {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  reply
    .header('cache-control', `public, max-age=${maxAgeSeconds}`)
    .header('etag', etag)
    .header('access-control-allow-origin', '*')
    // Owners' performance tools (and our banner benchmark) may see how long these took.
    .header('timing-allow-origin', '*')
    .header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type(contentType).send(body);
}

export const widgetAssetRoutes: FastifyPluginAsyncZod<WidgetAssetOptions> = async (app, options) => {
  let script: Promise<Buffer> | undefined;
  const loadScript = () => {
    script ??= readFile(options.widgetScriptPath).catch((error: unknown) => {
      script = undefined;
      throw error;
    });
    return script;
  };

  app.get('/widget.js', async (request, reply) => {
    let body: Buffer;
    try {
      body = await loadScript();
    } catch {
      request.log.error({ path: options.widgetScriptPath }, 'widget.js is not built');
      return reply.code(503).send({ error: { code: 'WIDGET_NOT_BUILT', message: 'widget.js is not built: run npm run build -w @consentry/widget' } });
    }
    return sendCached(request, reply, body, 'application/javascript; charset=utf-8', 300);
  });

  async function activeWebsite(embedCode: string) {
    const website = await getWebsiteByEmbedCode(options.pool, embedCode);
    if (!website) throw new IngestError(404, 'UNKNOWN_EMBED_CODE', 'Unknown embed code');
    if (!website.isActive) throw new IngestError(403, 'WEBSITE_INACTIVE', 'This website is not active');
    return website;
  }

  const configTtlMs = options.configCacheTtlMs ?? 5_000;
  const configCache = new Map<string, { body: Promise<string>; expires: number }>();
  const renderConfig = async (embedCode: string): Promise<string> => {
    const website = await activeWebsite(embedCode);
    const branding = await findBranding(options.pool, website.ownerId);
    return JSON.stringify({
      websiteId: website.id,
      // An owner who has not set up branding shows the website's own name, not ours.
      companyName: branding?.companyName ?? website.name,
      logoUrl: branding?.logoUrl ? `${options.publicUrl}/api/widget/logo/${website.embedCode}` : null,
      primaryColor: branding?.primaryColor ?? defaultBranding.primaryColor,
      privacyPolicyUrl: website.privacyPolicyUrl,
      policyVersion: website.policyVersion,
      position: website.bannerPosition,
      theme: website.bannerTheme,
      language: 'en',
    });
  };
  const cachedConfig = (embedCode: string): Promise<string> => {
    const now = Date.now();
    const hit = configCache.get(embedCode);
    if (hit && hit.expires > now) return hit.body;
    if (configCache.size >= 10_000) configCache.clear();
    const body = renderConfig(embedCode);
    configCache.set(embedCode, { body, expires: now + configTtlMs });
    // Unknown or inactive websites and failures are not remembered.
    body.catch(() => configCache.delete(embedCode));
    return body;
  };

  app.get(
    '/api/widget/config/:embedCode',
    { schema: { params: embedCodeParams, response: { 200: widgetConfigAnswer, 304: z.null(), 403: errorAnswer, 404: errorAnswer } } },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      return sendCached(request, reply, await cachedConfig(request.params.embedCode), 'application/json; charset=utf-8', 60);
    },
  );

  app.get(
    '/api/widget/logo/:embedCode',
    { schema: { params: embedCodeParams } },
    async (request, reply) => {
      const website = await activeWebsite(request.params.embedCode);
      const logo = (await findBranding(options.pool, website.ownerId))?.logoUrl;
      const match = logo ? /^data:(image\/[a-z+.-]+);base64,(.*)$/s.exec(logo) : null;
      if (!match) throw new IngestError(404, 'NO_LOGO', 'This website has no logo');
      // An SVG served from our origin must not be able to run script if opened directly.
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      return sendCached(request, reply, Buffer.from(match[2]!, 'base64'), match[1]!, 300);
    },
  );
};
