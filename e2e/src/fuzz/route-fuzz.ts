// Fuzzing every route of the api's OpenAPI document, plus the widget's collection endpoints, against
// the whole running product on a real database: generated requests (schema-shaped and hostile, from
// signed-out, owner and admin callers) and a tally of the answers. The contract: no answer is a 5xx.
// `npm run fuzz` runs 20,000 requests; a smaller run is part of `npm test` (route-fuzz.int.test.ts).
// FUZZ_TRACE=<part of "METHOD /path"> prints every request to matching routes with its answer.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { engagementBody, impressionBody, pagehideBody, pageviewBody, consentBody } from '@consentry/ingest';
import { loadConfig } from '@consentry/infra';
import { createTestDatabase, freePort } from '@consentry/infra/testing';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { z } from 'zod';
import { startSystem } from '@consentry/server';
import { anyJson, valueFor, type FuzzWorld, type JsonSchema } from './schema-arbitrary';

interface Parameter {
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly name: string;
  readonly required?: boolean;
  readonly schema?: JsonSchema;
}

interface Operation {
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: JsonSchema }> };
}

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components?: { readonly schemas?: Record<string, JsonSchema> };
}

export interface FuzzTarget {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path template, e.g. /api/websites/{id}. */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly body?: JsonSchema;
}

/** Routes a caller cannot fuzz meaningfully: a stream that never ends, the document itself. */
const skipped = (path: string) => path === '/api/events' || path.startsWith('/api/docs');
/** Routes that end the caller's own session: sent signed out only, so the fuzz keeps its sessions. */
const sessionEnding = new Set(['POST /api/logout', 'POST /api/admin/logout', 'POST /api/admin/password', 'POST /api/auth/password']);

export function targetsOf(document: OpenApiDocument): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    if (skipped(path)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      const body = operation.requestBody?.content?.['application/json']?.schema;
      targets.push({ method: upper as FuzzTarget['method'], path, parameters: operation.parameters ?? [], ...(body ? { body } : {}) });
    }
  }
  return targets;
}

/** The widget's endpoints: not in the api's document, but the most exposed routes there are. */
export function collectionTargets(): FuzzTarget[] {
  const schemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const embedCodeParameter: Parameter = { in: 'path', name: 'embedCode', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' } };
  return [
    { method: 'POST', path: '/api/collect/consent', parameters: [], body: schemaOf(consentBody) },
    { method: 'POST', path: '/api/collect/impression', parameters: [], body: schemaOf(impressionBody) },
    { method: 'POST', path: '/api/collect/pageview', parameters: [], body: schemaOf(pageviewBody) },
    { method: 'POST', path: '/api/collect/pagehide', parameters: [], body: schemaOf(pagehideBody) },
    { method: 'POST', path: '/api/collect/engagement', parameters: [], body: schemaOf(engagementBody) },
    { method: 'GET', path: '/api/widget/config/{embedCode}', parameters: [embedCodeParameter] },
    { method: 'GET', path: '/api/widget/logo/{embedCode}', parameters: [embedCodeParameter] },
  ];
}

export type Caller = 'anonymous' | 'owner' | 'admin';

export interface FuzzRequest {
  readonly target: FuzzTarget;
  readonly caller: Caller;
  readonly inject: InjectOptions;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** Percent-encodes a path segment; a lone surrogate goes as the invalid UTF-8 bytes a hostile client would send. */
const encodeSegment = (text: string) => text.replace(/[\uD800-\uDFFF]/g, (unit, offset: number, whole: string) => {
  const pairedWithNext = unit <= '\uDBFF' && /[\uDC00-\uDFFF]/.test(whole[offset + 1] ?? '');
  const pairedWithPrevious = unit >= '\uDC00' && /[\uD800-\uDBFF]/.test(whole[offset - 1] ?? '');
  return pairedWithNext || pairedWithPrevious ? unit : '\u0000lone';
}).split('\u0000lone').map((part) => encodeURIComponent(part)).join('%ED%A0%80');

/** Requests for one target: its path, query and body filled from their schemas. */
export function requestsFor(target: FuzzTarget, world: FuzzWorld, publicUrl: string): fc.Arbitrary<FuzzRequest> {
  const pathParameters = target.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = target.parameters.filter((parameter) => parameter.in === 'query');
  const pathValues = fc.tuple(...pathParameters.map((parameter) => fc.oneof(valueFor(parameter.schema, world, 0, true), valueFor(parameter.schema, world))));
  const queryValues = fc.tuple(
    ...queryParameters.map((parameter) =>
      parameter.required
        ? fc.oneof(valueFor(parameter.schema, world, 0, true), valueFor(parameter.schema, world)).map((value) => [value])
        : fc.option(fc.oneof(valueFor(parameter.schema, world, 0, true), valueFor(parameter.schema, world)), { nil: undefined }).map((value) => (value === undefined ? [] : [value])),
    ),
  );
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = target.body
    ? fc.oneof(
        { weight: 8, arbitrary: valueFor(target.body, world, 0, true).map((value) => ({ payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' })) },
        { weight: 8, arbitrary: valueFor(target.body, world).map((value) => ({ payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' })) },
        { weight: 1, arbitrary: fc.constantFrom('{', '', '[1,2', '{"a":}', '\u0000').map((payload) => ({ payload, contentType: 'application/json' })) },
        { weight: 1, arbitrary: anyJson.map((value) => ({ payload: JSON.stringify(value), contentType: 'text/plain' })) },
      )
    : fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: anyJson.map((value) => ({ payload: JSON.stringify(value), contentType: 'application/json' })) });
  const key = `${target.method} ${target.path}`;
  const callers: Caller[] = sessionEnding.has(key) ? ['anonymous'] : ['anonymous', 'owner', 'owner', 'admin', 'admin'];
  return fc
    .record({
      pathValues,
      queryValues,
      body,
      caller: fc.constantFrom(...callers),
      foreignOrigin: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
      websiteOrigin: world.origins.length > 0 ? fc.constantFrom(...world.origins) : fc.constant(publicUrl),
      address: fc.integer({ min: 1, max: 250 }),
    })
    .map(({ pathValues: values, queryValues: queries, body: sent, caller, foreignOrigin, websiteOrigin, address }) => {
      let url = target.path;
      pathParameters.forEach((parameter, index) => {
        url = url.replace(`{${parameter.name}}`, encodeSegment(asText(values[index])));
      });
      const query = new URLSearchParams();
      queryParameters.forEach((parameter, index) => {
        const [value] = queries[index] as unknown[];
        if (value !== undefined) query.append(parameter.name, asText(value));
      });
      const search = query.toString();
      const headers: Record<string, string> = {};
      // The widget posts from the website's own pages; the app from its own origin.
      const ownOrigin = target.path.startsWith('/api/collect/') ? websiteOrigin : publicUrl;
      if (target.method !== 'GET') headers.origin = foreignOrigin ? 'https://evil.example' : ownOrigin;
      if (sent.contentType) headers['content-type'] = sent.contentType;
      const inject: InjectOptions = {
        method: target.method,
        url: search ? `${url}?${search}` : url,
        headers,
        remoteAddress: `198.51.100.${address}`,
        ...(sent.payload !== undefined ? { payload: sent.payload } : {}),
      };
      return { target, caller, inject };
    });
}

export interface FuzzFailure {
  readonly method: string;
  readonly url: string;
  readonly caller: Caller;
  readonly status: number;
  readonly body: string;
  readonly payload: string | undefined;
}

export interface FuzzSummary {
  readonly requests: number;
  readonly targets: number;
  readonly byStatusClass: Readonly<Record<'2xx' | '3xx' | '4xx' | '5xx', number>>;
  /** Requests and answers below 400, per route: shows which routes the fuzz got past validation. */
  readonly byRoute: ReadonlyMap<string, { requests: number; accepted: number }>;
  readonly failures: readonly FuzzFailure[];
  readonly durationMs: number;
}

export interface FuzzOptions {
  readonly requests: number;
  readonly seed?: number;
  readonly concurrency?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Starts the product on a fresh database, sets up owners, websites and an admin, and fuzzes it. */
export async function runRouteFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const db = await createTestDatabase('route_fuzz');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'consentry-fuzz-'));
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;
  const admin = { username: 'fuzz-admin', password: 'fuzz admin password' };
  const system = await startSystem(
    loadConfig({
      DATABASE_URL: db.connectionString,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      PUBLIC_URL: publicUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      GEOIP: 'none',
      INGEST_RATE_LIMIT_PER_MINUTE: '10000000',
      // Past the identify limits every request would be a 429, and the fuzz would reach no deeper.
      IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
      IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE: '10000000',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
    }),
  );
  const app = system.http;
  if (!app) throw new Error('The fuzzer needs a process that serves HTTP');
  try {
    const send = (inject: InjectOptions) => app.inject(inject);
    const signIn = async (url: string, payload: object) => {
      const response = await send({ method: 'POST', url, headers: { origin: publicUrl }, payload });
      if (response.statusCode >= 300) throw new Error(`Fuzz set-up: ${url} answered ${response.statusCode} ${response.body}`);
      const cookie = response.cookies.find((candidate) => candidate.name === 'consentry_session');
      return `consentry_session=${cookie?.value ?? ''}`;
    };
    const cookies: Record<Caller, string | null> = {
      anonymous: null,
      owner: await signIn('/api/auth/register', { email: `owner-${randomUUID()}@fuzz.example`, password: 'owner password 1' }),
      admin: await signIn('/api/admin/login', admin),
    };
    // Other people's things, reachable by id: the fuzz's owner must not see or change them.
    const uuids: string[] = [];
    const embedCodes: string[] = [];
    const emails: string[] = [];
    const origins: string[] = [];
    const addWebsite = async (cookie: string, name: string) => {
      const domain = `${name.toLowerCase()}.fuzz.invalid`;
      const response = await send({ method: 'POST', url: '/api/websites', headers: { origin: publicUrl, cookie }, payload: { name, domain } });
      if (response.statusCode !== 201) throw new Error(`Fuzz set-up: adding a website answered ${response.statusCode} ${response.body}`);
      const website = response.json<{ id: string; embedCode: string }>();
      uuids.push(website.id);
      embedCodes.push(website.embedCode);
      origins.push(`https://${domain}`);
    };
    await addWebsite(cookies.owner!, 'Owned');
    for (const victim of ['Alice', 'Bruno']) {
      const email = `${victim.toLowerCase()}-${randomUUID()}@fuzz.example`;
      emails.push(email);
      const cookie = await signIn('/api/auth/register', { email, password: 'victim password 1' });
      const me = await send({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
      uuids.push(me.json<{ id: string }>().id);
      await addWebsite(cookie, victim);
    }
    const consent = await send({
      method: 'POST',
      url: '/api/collect/consent',
      headers: { 'content-type': 'text/plain', origin: origins[0]! },
      payload: JSON.stringify({ embedCode: embedCodes[0], eventId: randomUUID(), visitorId: randomUUID(), choice: 'accepted', source: 'banner', policyVersion: '1', occurredAt: new Date().toISOString() }),
    });
    // A pending invitation, so the accept route meets a real token now and then.
    const invited = await send({ method: 'POST', url: '/api/admin/users/invite', headers: { origin: publicUrl, cookie: cookies.admin! }, payload: { email: `invitee-${randomUUID()}@fuzz.example` } });
    if (invited.statusCode !== 201) throw new Error(`Fuzz set-up: an invitation answered ${invited.statusCode} ${invited.body}`);
    const invitation = invited.json<{ id: string; inviteUrl: string }>();
    uuids.push(invitation.id);
    embedCodes.push(invitation.inviteUrl.split('#')[1]!);
    if (consent.statusCode !== 201) throw new Error(`Fuzz set-up: a consent answered ${consent.statusCode} ${consent.body}`);
    uuids.push(consent.json<{ eventId: string }>().eventId);

    const document = (await send({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();
    const world: FuzzWorld = {
      uuids,
      embedCodes,
      emails,
      origins,
      resolve: (ref) => document.components?.schemas?.[ref.replace('#/components/schemas/', '')],
    };
    const targets = [...targetsOf(document), ...collectionTargets()];
    const sampled = fc.sample(fc.oneof(...targets.map((target) => requestsFor(target, world, publicUrl))), { numRuns: options.requests, seed: options.seed ?? 20_261_124 });
    // Deletions last: run early, they would take the fixtures away from every later request.
    const requests = [...sampled.filter((request) => request.target.method !== 'DELETE'), ...sampled.filter((request) => request.target.method === 'DELETE')];

    const started = performance.now();
    const byStatusClass = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
    const byRoute = new Map<string, { requests: number; accepted: number }>();
    for (const target of targets) byRoute.set(`${target.method} ${target.path}`, { requests: 0, accepted: 0 });
    const failures: FuzzFailure[] = [];
    let next = 0;
    let done = 0;
    const worker = async () => {
      for (let index = next++; index < requests.length; index = next++) {
        const request = requests[index]!;
        const cookie = cookies[request.caller];
        const response = await send({ ...request.inject, headers: { ...(request.inject.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
        const status = response.statusCode;
        // A sign-in or registration inside a session gives it a new id: keep following it.
        const renewed = response.cookies.find((candidate) => candidate.name === 'consentry_session');
        if (cookie && renewed?.value) cookies[request.caller] = `consentry_session=${renewed.value}`;
        const statusClass = status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';
        byStatusClass[statusClass]++;
        const route = byRoute.get(`${request.target.method} ${request.target.path}`)!;
        route.requests++;
        if (status < 400) route.accepted++;
        if (process.env.FUZZ_TRACE && `${request.target.method} ${request.target.path}`.includes(process.env.FUZZ_TRACE)) {
          process.stderr.write(`${status} ${request.caller} ${String(request.inject.method)} ${String(request.inject.url)} ${String(request.inject.payload ?? '').slice(0, 200)} -> ${response.body.slice(0, 200)}\n`);
        }
        if (status >= 500) {
          failures.push({
            method: String(request.inject.method),
            url: String(request.inject.url),
            caller: request.caller,
            status,
            body: response.body.slice(0, 500),
            payload: typeof request.inject.payload === 'string' ? request.inject.payload.slice(0, 500) : undefined,
          });
        }
        if (++done % 500 === 0) options.onProgress?.(done, requests.length);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
    return { requests: requests.length, targets: targets.length, byStatusClass, byRoute, failures, durationMs: performance.now() - started };
  } finally {
    await system.stop();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
