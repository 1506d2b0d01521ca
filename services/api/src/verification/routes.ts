// POST /api/verify-installation {embedCode}: fetches the website's home page (safely: see
// safe-fetch.ts) and reports whether the snippet with this embed code is on it, and when the
// ledger last received an event from the site. The answer is a verification result, not an API
// error: a page without the snippet is `success: false` with the reason. Each check fetches pages
// on the server's behalf, so each account may run only `perAccountPerMinute` of them (429 after).
import fastifyRateLimit from '@fastify/rate-limit';
import type { Db } from '@consentry/infra';
import { embedCode } from '@consentry/events';
import { getLastEventAt, getWebsiteByEmbedCode } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInViewer, visibleWebsiteIds, canSeeWebsite } from '../access';
import { RefusedTargetError, safeFetch, type SafeFetchOptions } from './safe-fetch';
import { findSnippet } from './snippet';

export interface VerificationOptions {
  readonly pool: Db;
  readonly fetch?: SafeFetchOptions;
  /** The pages tried for a domain, in order (tests point this at a loopback server). */
  readonly pageUrlsFor?: (domain: string) => readonly string[];
  /** Checks one account may run per minute (default 10). */
  readonly perAccountPerMinute?: number;
}

/**
 * Events this recent carry the website's embed code from a page with the snippet: it works, whatever
 * a fetch of the home page from this server says (a LAN site, a name only visitors can resolve).
 */
export const recentEventWindowMs = 7 * 24 * 60 * 60 * 1000;
export const eventsArrivingMessage = 'The snippet works: events from this website are arriving.';

/** The account a check counts against, set once the viewer is known (the limiter's key). */
const checkedBy = new WeakMap<object, string>();

const verificationAnswer = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  error: z.string().optional(),
  details: z.object({
    url: z.string().nullable(),
    statusCode: z.number().nullable(),
    scriptFound: z.boolean(),
    embedCodeFound: z.boolean(),
    reason: z.string().nullable().meta({ description: 'What the page check found wrong; null when the page has the snippet' }),
    lastEventAt: z.string().nullable(),
  }),
});
const errorAnswer = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const verificationRoutes: FastifyPluginAsyncZod<VerificationOptions> = async (app, options) => {
  const pageUrlsFor = options.pageUrlsFor ?? ((domain: string) => [`https://${domain}/`, `http://${domain}/`]);
  if (!app.hasDecorator('createRateLimit')) await app.register(fastifyRateLimit, { global: false });
  const perAccount = app.createRateLimit({
    max: options.perAccountPerMinute ?? 10,
    timeWindow: 60_000,
    keyGenerator: (request) => `verify-installation:${checkedBy.get(request) ?? request.ip}`,
  });

  app.post(
    '/api/verify-installation',
    {
      config: { access: 'signedIn', signInPrompt: 'Sign in to verify an installation' },
      schema: {
        body: z.strictObject({ embedCode: embedCode }),
        response: { 200: verificationAnswer, 401: errorAnswer, 404: errorAnswer, 429: errorAnswer },
      },
    },
    async (request, reply) => {
      const viewer = signedInViewer(request);
      checkedBy.set(request, viewer.adminUsername !== null ? `admin:${viewer.adminUsername}` : `user:${viewer.user?.id}`);
      const limit = await perAccount(request);
      if (!limit.isAllowed && limit.isExceeded) {
        const wait = Math.max(1, limit.ttlInSeconds);
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send({ error: { code: 'RATE_LIMITED', message: `Too many installation checks; try again in ${wait} second${wait === 1 ? '' : 's'}` } });
      }
      const website = await getWebsiteByEmbedCode(options.pool, request.body.embedCode);
      if (!website || !canSeeWebsite(await visibleWebsiteIds(options.pool, viewer), website.id)) {
        return reply.code(404).send({ error: { code: 'WEBSITE_NOT_FOUND', message: 'Website not found' } });
      }
      const lastEventAt = await getLastEventAt(options.pool, website.id);
      let reason = 'The website could not be reached';
      for (const url of pageUrlsFor(website.domain)) {
        try {
          const page = await safeFetch(url, options.fetch);
          const found = findSnippet(page.body, website.embedCode);
          const details = { url: page.url, statusCode: page.status, ...found, lastEventAt };
          if (page.status >= 400) {
            reason = `${page.url} answered HTTP ${page.status}`;
            continue;
          }
          if (found.embedCodeFound) {
            return { success: true, message: 'Installation verified successfully!', details: { ...details, reason: null } };
          }
          return {
            success: false,
            error: 'Could not verify the installation on your website.',
            details: {
              ...details,
              reason: found.scriptFound
                ? `The Consentry script on ${page.url} uses a different embed code`
                : `The Consentry script was not found on ${page.url}`,
            },
          };
        } catch (error) {
          if (error instanceof RefusedTargetError) {
            reason = error.message;
            // A refused or unresolvable host is so for every scheme: do not try the next URL.
            if (error.kind === 'address' || error.kind === 'unresolvable') break;
            continue;
          }
          reason = `${url} could not be fetched (${error instanceof Error ? error.message : 'network error'})`;
        }
      }
      const details = { url: null, statusCode: null, scriptFound: false, embedCodeFound: false, reason, lastEventAt };
      // No page could be checked, but recent events prove the snippet: that first, the fetch problem second.
      if (lastEventAt !== null && Date.now() - Date.parse(lastEventAt) <= recentEventWindowMs) {
        return { success: true, message: eventsArrivingMessage, details };
      }
      return { success: false, error: 'Could not verify the installation on your website.', details };
    },
  );
};
