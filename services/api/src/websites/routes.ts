// The owner's websites: list (an admin's: all), add within the plan's limit, remove.
import { websiteName, type WebsiteActor } from '@consentry/events';
import type { Db } from '@consentry/infra';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { websitesInScope } from '../auth/scope';
import { requireUser, requireViewer } from '../auth/viewer';
import { errorsFor, noContent, toWebsiteAnswer, uuidParam, websiteAnswer } from '../schemas';
import { normaliseDomain } from './domain-name';
import { addWebsite, removeWebsite } from './websites';

const newWebsiteBody = z.object({
  name: z.string().trim().pipe(websiteName),
  domain: z
    .string()
    .max(2048)
    .transform((input, ctx) => {
      const domain = normaliseDomain(input);
      if (domain === null) {
        ctx.issues.push({ code: 'custom', input, message: 'Enter a domain such as example.com', params: { apiCode: 'INVALID_DOMAIN' } });
        return z.NEVER;
      }
      return domain;
    })
    .meta({ description: 'A hostname or URL; stored as the lower-case hostname without scheme, port, path or a leading www.' }),
});

export const websiteRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/websites',
    { schema: { tags: ['websites'], summary: "The owner's websites (an admin's: every website)", response: { 200: z.array(websiteAnswer), ...errorsFor(401) } } },
    async (request) => {
      const viewer = await requireViewer(pool, request);
      return (await websitesInScope(pool, viewer)).map(toWebsiteAnswer);
    },
  );

  app.post(
    '/api/websites',
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['websites'],
        summary: 'Add a website',
        description: "Refused with 403 `WEBSITE_LIMIT_REACHED` ('Website limit reached') when the owner's plan allows no more.",
        body: newWebsiteBody,
        response: { 201: websiteAnswer, ...errorsFor(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const owner = await requireUser(pool, request);
      const website = await addWebsite(pool, owner, request.body);
      return reply.code(201).send(toWebsiteAnswer(website));
    },
  );

  app.delete(
    '/api/websites/:id',
    {
      schema: {
        tags: ['websites'],
        summary: 'Remove a website',
        description: "Another owner's website answers 404, as if it did not exist.",
        params: z.object({ id: uuidParam }),
        response: { 204: noContent, ...errorsFor(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const viewer = await requireViewer(pool, request);
      const actor: WebsiteActor = viewer.adminUsername
        ? { kind: 'admin', username: viewer.adminUsername }
        : { kind: 'owner', userId: (await requireUser(pool, request)).id };
      await removeWebsite(pool, request.params.id, actor);
      return reply.code(204).send(null);
    },
  );
};
