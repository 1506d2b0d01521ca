// The server side of bench:ingest, in its own process so the load generator does not share its
// event loop. MODE=group runs the real ingest service (group commit); MODE=naive is the baseline:
// the same validation and enrichment, but one INSERT (one transaction) per request.
import { randomUUID } from 'node:crypto';
import { appliedRuleFor, consentStreamId, regionOf } from '@consentry/events';
import { createGroupCommitAppender, createPool, prepareEvent } from '@consentry/infra';
import { consentBody, createGeoLocator, recordedChoiceOf, deviceClassOf, ingestPlugin, normaliseIp, truncateIp } from '@consentry/ingest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';

const { DATABASE_URL, PORT, MODE, WEBSITE_ID } = process.env;

if (!DATABASE_URL || !PORT || !MODE || !WEBSITE_ID) throw new Error('DATABASE_URL, PORT, MODE and WEBSITE_ID are required');
const pool = createPool(DATABASE_URL, { max: 10 });
const app = Fastify({ trustProxy: ['127.0.0.1'] });
const geo = createGeoLocator('database');

if (MODE === 'group') {
  await app.register(ingestPlugin, {
    pool,
    appender: createGroupCommitAppender(pool, {
      ...(process.env.GROUP_CONCURRENCY ? { maxConcurrentBatches: Number(process.env.GROUP_CONCURRENCY) } : {}),
      ...(process.env.GROUP_WAIT_MS ? { maxWaitMs: Number(process.env.GROUP_WAIT_MS) } : {}),
    }),
    geo,
    publicUrl: `http://127.0.0.1:${PORT}`,
    widgetScriptPath: '/nonexistent',
    rateLimitPerMinute: 100_000_000,
  });
} else {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.withTypeProvider<ZodTypeProvider>().post('/api/collect/consent', { schema: { body: consentBody } }, async (request, reply) => {
    const body = request.body;
    const ip = normaliseIp(request.ip);
    const location = await geo.locate(ip, request.headers);
    const chosen = recordedChoiceOf(body);
    const event = prepareEvent({
      type: chosen.type,
      eventId: body.eventId ?? randomUUID(),
      data: {
        websiteId: WEBSITE_ID,
        visitorId: body.visitorId,
        source: body.source,
        offered: chosen.offered,
        purposes: chosen.purposes,
        method: chosen.method,
        rule: appliedRuleFor(regionOf(location.country)),
        policyVersion: body.policyVersion,
        shownLanguage: body.shownLanguage,
        textsHash: body.textsHash,
        language: body.language,
        pageUrl: body.pageUrl,
        ipAddress: ip ? truncateIp(ip) : null,
        userAgent: request.headers['user-agent'] ?? null,
        deviceClass: deviceClassOf(request.headers['user-agent']),
        country: location.country,
        city: location.city,
        email: null,
        occurredAt: body.occurredAt,
        receivedAt: new Date().toISOString(),
      },
    });
    await pool.query(
      'INSERT INTO events (event_id, stream_id, type, schema_version, data, metadata) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING',
      [event.eventId, consentStreamId(WEBSITE_ID, body.visitorId), event.type, event.schemaVersion, event.data, event.metadata],
    );
    return reply.code(201).send({ eventId: event.eventId, status: 'stored' });
  });
}
await app.listen({ port: Number(PORT), host: '127.0.0.1' });
process.stdout.write('READY\n');
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
