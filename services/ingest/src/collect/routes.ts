// The collection endpoints of docs/ingest-protocol.md: consent choices, banner impressions, page
// views, time on page, engagement and (docs/identification.md) who a consenting visitor said they
// are. Each request is checked (embed code known, website active, Origin its own), enriched with what
// the browser must not be trusted with (IP, user agent, device class, location, receive time) and
// appended through group commit; the answer comes after commit.
import { allowsIdentification, consentStreamId, InvalidEventError, type DeviceClass } from '@consentry/events';
import { ruleFor } from '../enrich/rule';
import { appendUnversioned, checkIdentificationAllowed, decideOnStream, EventRefusedError, StoreUnavailableError, type Db, type GroupCommitAppender, type NewEvent } from '@consentry/infra';
import type { Website } from '@consentry/projections';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceClassOf } from '../enrich/device-class';
import type { GeoLocator } from '../enrich/geo';
import { ipForStorage, normaliseIp } from '../enrich/ip-address';
import { isoTimestamp } from '../enrich/received-at';
import { clientIp } from '../client-ip';
import { recordedChoiceOf } from './consent-choice';
import { pageAddressFor } from './page-address';
import { IngestError } from '../errors';
import type { CompanyMatcher } from '../identify/company-match';
import type { IdentifyRateLimiter } from '../identify/rate-limits';
import { admitIdentification } from '../identify/resolution-cap';
import { createOriginCheck } from '../origin';
import type { WebsiteResolver } from '../website-resolver';
import {
  acceptedAnswer,
  consentAnswer,
  consentBody,
  engagementBody,
  errorAnswer,
  identifyAnswer,
  identifyBody,
  impressionBody,
  pagehideBody,
  pageviewBody,
} from './schemas';

export interface CollectOptions {
  readonly pool: Db;
  readonly appender: GroupCommitAppender;
  readonly companyMatcher: CompanyMatcher;
  /** Identify requests per visitor address and per website (docs/identification.md, "Limits"). */
  readonly identifyRateLimiter: IdentifyRateLimiter;
  readonly websites: WebsiteResolver;
  readonly geo: GeoLocator;
  /** Largest accepted body, for every content type (the server default would allow 1 MB). */
  readonly bodyLimit: number;
}

/** Two log lines per request at thousands of requests a second would cost more than the request. */
const quiet = { logLevel: 'warn' as const };

const errors = { 400: errorAnswer, 403: errorAnswer, 404: errorAnswer, 413: errorAnswer, 429: errorAnswer, 503: errorAnswer };

const identificationNotAllowed = () =>
  new IngestError(403, 'IDENTIFICATION_NOT_ALLOWED', "The visitor's latest choice on this website does not allow identification");

export const collectRoutes: FastifyPluginAsyncZod<CollectOptions> = async (app, { pool, appender, companyMatcher, identifyRateLimiter, websites, geo, bodyLimit }) => {
  const isOriginAllowed = createOriginCheck();

  /** The website the request is for, once it passed every check; otherwise a 4xx. */
  async function websiteFor(request: FastifyRequest, reply: FastifyReply, embedCode: string): Promise<Website> {
    const origin = request.headers.origin;
    // Errors are readable by the page (so the widget stops retrying them); only a website's own
    // origin ever gets a success.
    if (origin) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    const website = await websites.resolve(embedCode);
    if (!website) throw new IngestError(404, 'UNKNOWN_EMBED_CODE', 'Unknown embed code');
    if (!website.isActive) throw new IngestError(403, 'WEBSITE_INACTIVE', 'This website is not active');
    if (!isOriginAllowed(origin, website.domain)) {
      throw new IngestError(403, 'ORIGIN_NOT_ALLOWED', `Requests for this website must come from ${website.domain} or its subdomains`);
    }
    return website;
  }

  const userAgentOf = (request: FastifyRequest) => request.headers['user-agent']?.slice(0, 512) ?? null;
  const deviceOf = (request: FastifyRequest): DeviceClass => deviceClassOf(request.headers['user-agent']);

  const append = (streamId: string, event: NewEvent & { eventId: string }, guardsDecisions = false) =>
    appender.append({ streamId, event, guardsDecisions });

  app.post(
    '/api/collect/consent',
    { ...quiet, bodyLimit, schema: { body: consentBody, response: { 201: consentAnswer, ...errors } } },
    async (request, reply) => {
      const body = request.body;
      const website = await websiteFor(request, reply, body.embedCode);
      const ip = normaliseIp(clientIp(request));
      // Located from the full address; stored minimised when the website says so.
      const location = await geo.locate(ip, request.headers);
      const receivedAt = isoTimestamp();
      const chosen = recordedChoiceOf(body);
      const data = {
        websiteId: website.id,
        visitorId: body.visitorId,
        source: body.source,
        offered: chosen.offered,
        purposes: chosen.purposes,
        method: chosen.method,
        rule: ruleFor(website, location),
        policyVersion: body.policyVersion,
        shownLanguage: body.shownLanguage,
        textsHash: body.textsHash,
        language: body.language || null,
        pageUrl: body.pageUrl ? pageAddressFor(body.pageUrl, website) : null,
        ipAddress: ipForStorage(ip, website.ipAddressMode),
        userAgent: userAgentOf(request),
        deviceClass: deviceOf(request),
        country: location.country,
        city: location.city,
        email: null,
        occurredAt: body.occurredAt,
        receivedAt,
      };
      // A choice cannot have been made after it arrived: a visitor's clock running ahead is
      // recorded as the receive time (one that runs behind, or an outbox sending late, is kept).
      if (Date.parse(data.occurredAt) > Date.parse(receivedAt)) data.occurredAt = receivedAt;
      // A choice that does not allow identification withdraws it: it must not commit between an
      // identify request's check of the visitor's latest choice and that identification's append.
      const result = await append(
        consentStreamId(website.id, body.visitorId),
        chosen.type === 'ConsentGiven'
          ? { type: 'ConsentGiven', eventId: body.eventId, data }
          : { type: 'ConsentDeclined', eventId: body.eventId, data },
        !allowsIdentification(chosen),
      );
      // B2B: the company behind the visitor's network, from the full address, after the consent
      // committed and without holding up its answer. A retried beacon asks again; the match's
      // event id is derived from the consent's, so it is stored once.
      if (allowsIdentification(chosen)) {
        companyMatcher.matchAfterConsent(
          { websiteId: website.id, ownerId: website.ownerId, visitorId: body.visitorId, consentEventId: result.eventId, ip },
          request.log,
        );
      }
      return reply.code(201).send(result);
    },
  );

  // Who a visitor who allowed identification said they are. Refused (403) unless the website offers
  // identification and the consent event named is the visitor's latest choice and allows it; then
  // nothing of the request is stored, and nothing of it is logged on any path (the route logs only
  // warnings, and no warning here carries the body).
  app.post(
    '/api/collect/identify',
    { ...quiet, bodyLimit, schema: { body: identifyBody, response: { 201: identifyAnswer, ...errors } } },
    async (request, reply) => {
      const body = request.body;
      const website = await websiteFor(request, reply, body.embedCode);
      if (!website.purposes.includes('identification')) throw identificationNotAllowed();
      await identifyRateLimiter.count({ ip: clientIp(request), websiteId: website.id }, reply);
      const receivedAt = isoTimestamp();
      const streamId = consentStreamId(website.id, body.visitorId);
      // The check and the append are one decision on the visitor's stream: a withdrawal sent at the
      // same moment commits either before the check (which then refuses) or after the identification.
      const result = await decideOnStream(pool, streamId, async (tx) => {
        const check = await checkIdentificationAllowed(tx, { websiteId: website.id, visitorId: body.visitorId, consentEventId: body.consentEventId });
        if (!check.allowed) throw identificationNotAllowed();
        // Within the owner's monthly resolution cap, committed with the identification it allows.
        await admitIdentification(tx, { websiteId: website.id, visitorId: body.visitorId, email: body.email, at: receivedAt });
        return appendUnversioned(tx, streamId, {
          type: 'VisitorIdentified',
          eventId: body.eventId,
          data: {
            websiteId: website.id,
            visitorId: body.visitorId,
            source: body.source,
            email: body.email,
            name: body.name,
            company: body.company,
            pageUrl: body.pageUrl || null,
            consentEventId: check.consentEventId,
            // A visitor's clock running ahead is recorded as the receive time, as for consents.
            occurredAt: Date.parse(body.occurredAt) > Date.parse(receivedAt) ? receivedAt : body.occurredAt,
            receivedAt,
          },
        });
      }).catch((error: unknown) => {
        if (error instanceof IngestError) throw error;
        // The ledger's own errors may quote the data they refused: each is answered without its
        // cause, so no log line of the error handler can carry the email.
        if (error instanceof EventRefusedError || error instanceof InvalidEventError) {
          throw new IngestError(400, 'INVALID_EVENT', 'The identification contains a value the ledger cannot store');
        }
        if (error instanceof StoreUnavailableError) throw new StoreUnavailableError('The ledger cannot record the identification');
        throw new Error('Recording an identification failed');
      });
      return reply.code(201).send({ eventId: result.eventId });
    },
  );

  app.post(
    '/api/collect/impression',
    { ...quiet, bodyLimit, schema: { body: impressionBody, response: { 202: acceptedAnswer, ...errors } } },
    async (request, reply) => {
      const body = request.body;
      const website = await websiteFor(request, reply, body.embedCode);
      const result = await append(`banner-${website.id}`, {
        type: 'BannerShown',
        eventId: body.eventId,
        data: { websiteId: website.id, position: body.position, theme: body.theme, deviceClass: deviceOf(request), receivedAt: isoTimestamp() },
      });
      return reply.code(202).send({ status: result.status });
    },
  );

  app.post(
    '/api/collect/pageview',
    { ...quiet, bodyLimit, schema: { body: pageviewBody, response: { 202: acceptedAnswer, ...errors } } },
    async (request, reply) => {
      const body = request.body;
      const website = await websiteFor(request, reply, body.embedCode);
      const location = await geo.locate(normaliseIp(clientIp(request)), request.headers);
      const url = pageAddressFor(body.url, website);
      const referrer = body.referrer ? pageAddressFor(body.referrer, website) : '';
      const result = await append(`visits-${website.id}-${body.visitorId}`, {
        type: 'PageViewed',
        eventId: body.eventId,
        data: {
          websiteId: website.id,
          visitorId: body.visitorId,
          pageviewId: body.pageviewId,
          url,
          path: pathOf(url),
          referrer: referrer || null,
          title: body.title || null,
          deviceClass: deviceOf(request),
          country: location.country,
          receivedAt: isoTimestamp(),
        },
      });
      return reply.code(202).send({ status: result.status });
    },
  );

  app.post(
    '/api/collect/pagehide',
    { ...quiet, bodyLimit, schema: { body: pagehideBody, response: { 202: acceptedAnswer, ...errors } } },
    async (request, reply) => {
      const body = request.body;
      const website = await websiteFor(request, reply, body.embedCode);
      const result = await append(`visits-${website.id}-${body.visitorId}`, {
        type: 'PageHidden',
        eventId: body.eventId,
        data: { websiteId: website.id, visitorId: body.visitorId, pageviewId: body.pageviewId, visibleMs: body.visibleMs, receivedAt: isoTimestamp() },
      });
      return reply.code(202).send({ status: result.status });
    },
  );

  app.post(
    '/api/collect/engagement',
    { ...quiet, bodyLimit, schema: { body: engagementBody, response: { 202: acceptedAnswer, ...errors } } },
    async (request, reply) => {
      const body = request.body;
      const website = await websiteFor(request, reply, body.embedCode);
      const result = await append(`visits-${website.id}-${body.visitorId}`, {
        type: 'EngagementRecorded',
        eventId: body.eventId,
        data: { websiteId: website.id, visitorId: body.visitorId, pageviewId: body.pageviewId, kind: body.kind, receivedAt: isoTimestamp() },
      });
      return reply.code(202).send({ status: result.status });
    },
  );

  // Preflight: the widget sends simple requests (text/plain), but a page may post JSON. The origin
  // is checked on the POST itself, where the embed code is known.
  app.options('/api/collect/*', async (request, reply) => {
    return reply
      .code(204)
      .header('access-control-allow-origin', request.headers.origin ?? '*')
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .header('vary', 'Origin')
      .send();
  });
};

/** The path of a page URL (what top-pages lists); the URL itself when it does not parse. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname || '/';
  } catch {
    return url.slice(0, 2048) || '/';
  }
}
