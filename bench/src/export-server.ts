// The server side of bench:export, in its own process so its peak RSS is its own. MODE=stream runs
// the real export route (server-side cursor, back-pressure); MODE=naive is the baseline: load every
// record, build the whole CSV in memory, send it. Prints READY, and MAXRSS=<bytes> on SIGTERM.
import { createPool } from '@consentry/infra';
import { accessControl } from '@consentry/api/access';
import { exportColumns, exportRoutes } from '@consentry/api/export';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { csvLine } from '@consentry/api/csv';

const { DATABASE_URL, PORT, MODE } = process.env;
if (!DATABASE_URL || !PORT || !MODE) throw new Error('DATABASE_URL, PORT and MODE are required');
const pool = createPool(DATABASE_URL, { max: 4 });
const app = Fastify();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
// Every request is the admin `bench` (every website).
const benchAdmin = async () => ({ user: null, adminUsername: 'bench' });

if (MODE === 'stream') {
  await app.register(accessControl, { viewers: { viewerOf: benchAdmin, reload: benchAdmin } });
  await app.register(exportRoutes, { pool });
} else {
  app.get('/api/export/consents', async (_request, reply) => {
    const { rows } = await pool.query(
      `SELECT r.*, w.name AS website_name, w.domain AS website_domain FROM consent_records r LEFT JOIN websites w ON w.id = r.website_id ORDER BY received_at, event_id`,
    );
    let csv = csvLine(exportColumns);
    for (const row of rows) {
      csv += csvLine([row.event_id, row.received_at.toISOString(), row.website_id, row.website_name, row.website_domain, row.choice, row.source, row.policy_version, row.ip_address, row.user_agent, row.device_class, row.country, row.city, row.email, row.page_url]);
    }
    return reply.header('content-type', 'text/csv; charset=utf-8').send(csv);
  });
}
process.on('SIGTERM', () => {
  process.stdout.write(`MAXRSS=${process.resourceUsage().maxRSS * 1024}\n`);
  process.exit(0);
});
await app.listen({ port: Number(PORT), host: '127.0.0.1' });
process.stdout.write('READY\n');
