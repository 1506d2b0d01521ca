// What the widget loads: the script itself, its per-website configuration (branding, policy, purposes
// and the banner's texts in one language; cacheable), the consent rule for the visitor's region (per
// visitor, so the config stays cacheable), the owner's logo as an image (the config would otherwise
// carry up to 2 MB), and the form capture it loads once a visitor allowed identification.
import {
  bannerLanguage,
  bannerTextsFor,
  consentRule,
  defaultBranding,
  getDomainHostname,
  identificationForms,
  optionalPurpose,
  purposeService,
  regionCode,
  resolveBannerLanguage,
  textDirection,
} from '@consentry/events';
import type { Db } from '@consentry/infra';
import { findBranding, getLatestScanItems, getWebsiteByEmbedCode } from '@consentry/projections';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientIp } from '../client-ip';
import { IngestError } from '../errors';
import { embedCodeParams, errorAnswer } from '../collect/schemas';
import type { GeoLocator } from '../enrich/geo';
import { normaliseIp } from '../enrich/ip-address';
import { ruleFor } from '../enrich/rule';
import type { WebsiteResolver } from '../website-resolver';
import { createBannerTextsPublisher } from './banner-texts';
import { encodeAnswer, plainAnswer, readEncodedFile, sendEncoded, type EncodedAnswer } from './encoded-answers';
import { servicesWithDetected } from './detected-services';

export interface WidgetAssetOptions {
  readonly pool: Db;
  /** The collection endpoints' cache of websites, shared: the rule request comes with every new visitor. */
  readonly websites: WebsiteResolver;
  readonly geo: GeoLocator;
  readonly publicUrl: string;
  /** The built widget (widget/dist/widget.js). */
  readonly widgetScriptPath: string;
  /** The built form capture (widget/dist/identify.js), loaded by the widget once identification is allowed. */
  readonly identifyScriptPath: string;
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
  purposes: z.array(optionalPurpose),
  services: z.array(purposeService),
  consentLifetimeMonths: z.int(),
  domain: z.string(),
  language: z.string(),
  dir: z.enum(['ltr', 'rtl']),
  texts: z.record(z.string(), z.string()),
  textsHash: z.string(),
  regional: z.boolean(),
  /** Only when the website offers identification: which forms identify, and the script that reads them. */
  identification: z.object({ forms: identificationForms, script: z.literal('/identify.js') }).optional(),
});

const widgetConfigQuery = z.object({
  // Anything not shipped falls back to the website's default language: the banner must always show.
  lang: z.string().max(35).optional(),
});

const widgetRuleAnswer = z.object({ region: regionCode.nullable(), rule: consentRule });

/**
 * The loader URL every site embeds (and the form capture it adds): kept 5 minutes, then used while it is
 * revalidated in the background (a 304 when unchanged), so a release reaches every site within minutes
 * and no page waits on the revalidation.
 */
export const scriptCacheControl = 'public, max-age=300, stale-while-revalidate=86400';
const configCacheControl = 'public, max-age=60';
const logoCacheControl = 'public, max-age=300';

/** A built script and its compressed forms, read once and kept; a failed read is tried again on the next request. */
function scriptFile(filePath: string, log: FastifyBaseLogger) {
  let script: Promise<EncodedAnswer> | undefined;
  return () => {
    script ??= readEncodedFile(filePath, () =>
      log.warn({ path: filePath }, 'the built .br or .gz beside this script is missing or stale: compressed in memory instead (npm run build -w @consentry/widget writes them)'),
    ).catch((error: unknown) => {
      script = undefined;
      throw error;
    });
    return script;
  };
}

export const widgetAssetRoutes: FastifyPluginAsyncZod<WidgetAssetOptions> = async (app, options) => {
  const loadScript = scriptFile(options.widgetScriptPath, app.log);
  const loadIdentifyScript = scriptFile(options.identifyScriptPath, app.log);

  // These routes send their own compressed forms (encoded-answers.ts); the ingest-wide on-the-fly
  // compression leaves them alone.
  app.get('/widget.js', { compress: false }, async (request, reply) => {
    let body: EncodedAnswer;
    try {
      body = await loadScript();
    } catch {
      request.log.error({ path: options.widgetScriptPath }, 'widget.js is not built');
      return reply.code(503).send({ error: { code: 'WIDGET_NOT_BUILT', message: 'widget.js is not built: run npm run build -w @consentry/widget' } });
    }
    return sendEncoded(request, reply, body, 'application/javascript; charset=utf-8', scriptCacheControl);
  });

  // Served like widget.js: a static script from our origin, cached, sniffing off, no inline anything.
  app.get('/identify.js', { compress: false }, async (request, reply) => {
    let body: EncodedAnswer;
    try {
      body = await loadIdentifyScript();
    } catch {
      request.log.error({ path: options.identifyScriptPath }, 'identify.js is not built');
      return reply
        .code(404)
        .header('access-control-allow-origin', '*')
        .send({ error: { code: 'IDENTIFY_SCRIPT_NOT_BUILT', message: 'identify.js is not built: run npm run build -w @consentry/widget' } });
    }
    return sendEncoded(request, reply, body, 'application/javascript; charset=utf-8', scriptCacheControl);
  });

  async function activeWebsite(embedCode: string) {
    const website = await getWebsiteByEmbedCode(options.pool, embedCode);
    if (!website) throw new IngestError(404, 'UNKNOWN_EMBED_CODE', 'Unknown embed code');
    if (!website.isActive) throw new IngestError(403, 'WEBSITE_INACTIVE', 'This website is not active');
    return website;
  }

  const bannerTexts = createBannerTextsPublisher(options.pool);
  const configTtlMs = options.configCacheTtlMs ?? 5_000;
  // Each entry holds the rendered config compressed (once per distinct content: a config rendered
  // again the same reuses the forms of the one before).
  const configCache = new Map<string, { body: Promise<EncodedAnswer>; expires: number }>();
  const renderConfig = async (embedCode: string, asked: string | undefined): Promise<string> => {
    const website = await activeWebsite(embedCode);
    const branding = await findBranding(options.pool, website.ownerId);
    const language = resolveBannerLanguage(asked, website.defaultLanguage);
    const texts = bannerTextsFor(language, website.textOverrides);
    // An owner who has not set up branding shows the website's own name, not ours.
    const companyName = branding?.companyName ?? website.name;
    const textsHash = await bannerTexts.publish(language, companyName, texts);
    const scanned = await getLatestScanItems(options.pool, website.id);
    return JSON.stringify({
      websiteId: website.id,
      companyName,
      logoUrl: branding?.logoUrl ? `${options.publicUrl}/api/widget/logo/${website.embedCode}` : null,
      primaryColor: branding?.primaryColor ?? defaultBranding.primaryColor,
      privacyPolicyUrl: website.privacyPolicyUrl,
      policyVersion: website.policyVersion,
      position: website.bannerPosition,
      theme: website.bannerTheme,
      purposes: website.purposes,
      services: servicesWithDetected(website.services, scanned?.items ?? []),
      consentLifetimeMonths: website.consentLifetimeMonths,
      // The choice cookie's domain: a hostname, never the port the domain may carry.
      domain: getDomainHostname(website.domain),
      language,
      dir: textDirection(language),
      texts,
      textsHash,
      regional: !website.forceOptIn,
      ...(website.purposes.includes('identification')
        ? { identification: { forms: website.identificationForms, script: '/identify.js' } }
        : {}),
    });
  };
  const cachedConfig = (embedCode: string, asked: string | undefined): Promise<EncodedAnswer> => {
    const now = Date.now();
    // One entry per shipped language; every other `lang` shares the default's entry, so bogus values
    // neither grow the cache nor miss it.
    const shipped = bannerLanguage.safeParse(asked?.toLowerCase());
    const key = `${embedCode} ${shipped.success ? shipped.data : ''}`;
    const hit = configCache.get(key);
    if (hit && hit.expires > now) return hit.body;
    if (configCache.size >= 10_000) configCache.clear();
    const previous = hit?.body.catch(() => undefined);
    const body = renderConfig(embedCode, shipped.success ? shipped.data : undefined).then(async (json) =>
      encodeAnswer(Buffer.from(json), await previous),
    );
    configCache.set(key, { body, expires: now + configTtlMs });
    // Unknown or inactive websites and failures are not remembered.
    body.catch(() => configCache.delete(key));
    return body;
  };

  app.get(
    '/api/widget/config/:embedCode',
    {
      compress: false,
      schema: {
        params: embedCodeParams,
        querystring: widgetConfigQuery,
        response: { 200: widgetConfigAnswer, 304: z.null(), 400: errorAnswer, 403: errorAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      const body = await cachedConfig(request.params.embedCode, request.query.lang);
      return sendEncoded(request, reply, body, 'application/json; charset=utf-8', configCacheControl);
    },
  );

  app.get(
    '/api/widget/rule/:embedCode',
    { schema: { params: embedCodeParams, response: { 200: widgetRuleAnswer, 403: errorAnswer, 404: errorAnswer } } },
    async (request, reply) => {
      reply
        .header('access-control-allow-origin', '*')
        .header('timing-allow-origin', '*')
        // Per visitor: never stored by a browser or a CDN.
        .header('cache-control', 'private, no-store');
      const website = await options.websites.resolve(request.params.embedCode);
      if (!website) throw new IngestError(404, 'UNKNOWN_EMBED_CODE', 'Unknown embed code');
      if (!website.isActive) throw new IngestError(403, 'WEBSITE_INACTIVE', 'This website is not active');
      const location = await options.geo.locate(normaliseIp(clientIp(request)), request.headers);
      return ruleFor(website, location);
    },
  );

  app.get(
    '/api/widget/logo/:embedCode',
    { compress: false, schema: { params: embedCodeParams } },
    async (request, reply) => {
      const website = await activeWebsite(request.params.embedCode);
      const logo = (await findBranding(options.pool, website.ownerId))?.logoUrl;
      const match = logo ? /^data:(image\/[a-z+.-]+);base64,(.*)$/s.exec(logo) : null;
      if (!match) throw new IngestError(404, 'NO_LOGO', 'This website has no logo');
      // An SVG served from our origin must not be able to run script if opened directly.
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      // Images are compressed already: sent as they are.
      const image = Buffer.from(match[2]!, 'base64');
      return sendEncoded(request, reply, plainAnswer(image), match[1]!, logoCacheControl);
    },
  );
};
