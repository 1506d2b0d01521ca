// `consentry openapi`: prints the api's OpenAPI document (what /api/docs/json answers) without a
// database or a running server, so the web app's API types can be generated from it
// (`npm run gen:api -w @consentry/web`, web/scripts/gen-api-types.ts).
import { parseArgs } from 'node:util';
import { apiPlugin } from '@consentry/api';
import { createMemoryNotifier, type Db } from '@consentry/infra';
import Fastify from 'fastify';

/**
 * A pool that answers every query with no rows. Building the api runs one query (it prunes expired
 * sessions at start); the document depends on no data, and no route is ever called.
 */
function createInertPool(): Db {
  const query = async () => ({ rows: [], rowCount: 0, command: '', oid: 0, fields: [] });
  return { query, end: async () => undefined, on: () => undefined } as unknown as Db;
}

/** The document, built from the same route plugins, with the same options that matter, as system.ts's startHttp. */
export async function buildOpenApiDocument(): Promise<unknown> {
  const pool = createInertPool();
  const publicUrl = 'http://localhost:3000';
  const notifier = createMemoryNotifier();
  const app = Fastify({ logger: false });
  try {
    await app.register(apiPlugin, {
      pool,
      publicUrl,
      sessionSecret: 'x'.repeat(48),
      seedPlans: false,
      verification: { fetch: { allowHosts: [] } },
      notifier,
      sealKey: { keyId: 'openapi', publicKeyPem: '' },
    });
    // The swagger decorator lives inside the api's own context: ask for the document as a browser does.
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    if (response.statusCode !== 200) throw new Error(`The api answered /api/docs/json with ${response.statusCode}`);
    return response.json<unknown>();
  } finally {
    await app.close();
    await notifier.close();
  }
}

export async function runOpenApi(args: readonly string[]): Promise<number> {
  // No options: an unknown one or a stray argument is a usage error (exit 2), as for every command.
  parseArgs({ args: [...args], options: {}, strict: true, allowPositionals: false });
  const document = await buildOpenApiDocument();
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  return 0;
}
