// Dead letters for admins: the events a projection could not apply and set aside (see
// projections/src/runtime/dead-letters.ts), and retrying them once the cause is fixed. The same as
// `consentry dead-letters list|retry`, for an admin who has no shell on the server.
import type { Db } from '@consentry/infra';
import { allProjections, listDeadLetters, retryDeadLetters, type DeadLetter } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsFor } from '../schemas';

const deadLetterAnswer = z
  .object({
    projection: z.string(),
    eventId: z.uuid(),
    eventType: z.string(),
    position: z.int(),
    error: z.string().meta({ description: 'Why the projection could not apply the event (message and SQLSTATE)' }),
    attempts: z.int(),
    firstFailedAt: z.iso.datetime(),
    lastFailedAt: z.iso.datetime(),
    resolvedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'DeadLetter' });

const toAnswer = (letter: DeadLetter): z.infer<typeof deadLetterAnswer> => ({
  projection: letter.projection,
  eventId: letter.eventId,
  eventType: letter.type,
  position: letter.position,
  error: letter.error,
  attempts: letter.attempts,
  firstFailedAt: letter.firstFailedAt,
  lastFailedAt: letter.lastFailedAt,
  resolvedAt: letter.resolvedAt,
});

const projectionName = z.enum(allProjections.map((projection) => projection.name) as [string, ...string[]]);

const listQuery = z.object({
  projection: projectionName.optional(),
  includeResolved: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
});

const retryAnswer = z.object({
  applied: z.int(),
  gone: z.int().meta({ description: 'No longer in the log (purged or erased since): resolved' }),
  stillFailing: z.array(z.object({ projection: z.string(), eventId: z.uuid(), error: z.string() })),
});

export const adminDeadLetterRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/admin/dead-letters',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Events a projection could not apply and set aside, oldest first',
        querystring: listQuery,
        response: { 200: z.array(deadLetterAnswer), ...errorsFor(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { projection, includeResolved } = request.query;
      return (await listDeadLetters(pool, { ...(projection ? { projection } : {}), includeResolved, limit: 1000 })).map(toAnswer);
    },
  );

  app.post(
    '/api/admin/dead-letters/retry',
    {
      bodyLimit: 1024,
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Apply every open dead letter again (of one projection, or all); resolves those that now apply',
        body: z.object({ projection: projectionName.optional() }).strict().default({}),
        response: { 200: retryAnswer, ...errorsFor(400, 401, 403) },
      },
    },
    async (request) => {
      const { projection } = request.body;
      const outcomes = await retryDeadLetters(pool, allProjections, projection ? { projection } : {});
      return {
        applied: outcomes.filter((outcome) => outcome.outcome === 'applied').length,
        gone: outcomes.filter((outcome) => outcome.outcome === 'gone').length,
        stillFailing: outcomes
          .filter((outcome) => outcome.outcome === 'failed')
          .map((outcome) => ({ projection: outcome.projection, eventId: outcome.eventId, error: outcome.error ?? 'failed' })),
      };
    },
  );
};
