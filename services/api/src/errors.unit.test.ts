// What a caller reads when a request does not pass validation: a sentence per problem that names the
// field as a person would and says what to do, rather than zod's wording ("Invalid request: email:
// Invalid email address"). Checked through a real fastify app with the api's own compilers and error
// handler, as the routes validate.
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiErrorHandler, fieldLabel } from './errors';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(apiErrorHandler);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/things',
    {
      schema: {
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }),
        body: z
          .object({
            email: z.email().optional(),
            companyName: z.string().min(1).max(40).optional(),
            password: z.string().min(10).optional(),
            website: z.url().optional(),
            plan: z.enum(['free', 'pro']).optional(),
            purposes: z.array(z.string().max(5)).max(2).optional(),
            regionRules: z.record(z.string(), z.string().regex(/^x$/, 'Expected EU, a country code (GB) or a subdivision (US-CA)')).optional(),
            name: z.string().optional(),
          })
          .strict(),
      },
    },
    async () => ({ ok: true }),
  );
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

async function refusal(body: unknown, query = ''): Promise<{ status: number; code: string; message: string }> {
  const response = await app.inject({ method: 'POST', url: `/things${query}`, payload: body as object });
  const answer = response.json() as { error: { code: string; message: string } };
  return { status: response.statusCode, ...answer.error };
}

describe('a request that does not pass validation', () => {
  it.each([
    [{ email: 'not-an-address' }, 'Email must be a valid email address.'],
    [{ companyName: '' }, 'Company name cannot be empty.'],
    [{ companyName: 'x'.repeat(41) }, 'Company name must be at most 40 characters.'],
    [{ password: 'short' }, 'Password must be at least 10 characters.'],
    [{ website: 'nowhere' }, 'Website must be a valid web address (https://…).'],
    [{ plan: 'gold' }, 'Plan must be one of "free", "pro".'],
    [{ purposes: ['a', 'b', 'c'] }, 'Purposes can have at most 2 items.'],
    [{ purposes: ['analytics'] }, 'Purposes (item 1) must be at most 5 characters.'],
    [{ name: 42 }, 'Name must be text.'],
    [{ colour: 'red' }, 'The request has a field we do not know: colour.'],
    // A schema's own message is kept, after the field it is about.
    [{ regionRules: { ZZ: 'y' } }, 'Region rules ZZ: Expected EU, a country code (GB) or a subdivision (US-CA).'],
  ])('%j is answered 400 with a sentence: %s', async (body, message) => {
    expect(await refusal(body)).toEqual({ status: 400, code: 'INVALID_REQUEST', message });
  });

  it('says what is missing', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { password: 'short', email: 'x' } });
    expect(response.json().error.message).toBe('Email must be a valid email address. Password must be at least 10 characters.');
  });

  it('names the query when the query is wrong', async () => {
    expect((await refusal({}, '?limit=0')).message).toBe('Limit must be at least 1.');
  });

  it('never answers in zod’s own words', async () => {
    const bodies = [{ email: 1 }, { companyName: '' }, { plan: 'x' }, { website: 'x' }, { colour: 1 }];
    for (const body of bodies) expect((await refusal(body)).message).not.toMatch(/Invalid (input|request)|Too (small|big)|expected|received|>=|<=/);
  });
});

describe('fieldLabel', () => {
  it('turns a path into the words a person would use', () => {
    expect(fieldLabel(['settings', 'primaryColor'], 'body')).toBe('Primary color');
    expect(fieldLabel(['texts', 'de', 'acceptAll'], 'body')).toBe('Accept all');
    expect(fieldLabel(['texts', 'de'], 'body')).toBe('Texts de');
    expect(fieldLabel(['purposes', '0'], 'body')).toBe('Purposes (item 1)');
    expect(fieldLabel([], 'params')).toBe('The address');
  });
});
