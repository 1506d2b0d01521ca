// `consentry start [--role ROLES]`: the product until SIGINT, SIGTERM or SIGHUP (its terminal
// closed). Without --role every part runs on this machine, HTTP in HTTP_WORKERS processes
// (cluster.ts); with it, only the parts named, for a deployment across machines (docs/deploy.md).
import { parseArgs } from 'node:util';
import type { Config } from '@consentry/infra';
import { isClusterWorker, runWorker, startProduct } from '../cluster';
import { parseRoles, roles as allRoles } from '../roles';

export async function runStart(config: Config, args: readonly string[] = []): Promise<number> {
  if (isClusterWorker()) return runWorker(config);
  const { values } = parseArgs({ args: [...args], options: { role: { type: 'string' } }, strict: true, allowPositionals: false });
  let roles = allRoles.slice();
  if (values.role !== undefined) {
    try {
      roles = parseRoles(values.role);
    } catch (error) {
      process.stderr.write(`consentry start: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const split = roles.length < allRoles.length;
  if (split && (!config.NATS_URL || !config.DATABASE_URL)) {
    process.stderr.write(
      'consentry start: --role splits the product across processes and machines, which needs a PostgreSQL server (DATABASE_URL) ' +
        'and NATS JetStream (NATS_URL): the embedded default keeps its database and in-memory bus on this one machine. ' +
        'Without --role, `consentry start` already uses every core here (HTTP_WORKERS). See docs/deploy.md.\n',
    );
    return 2;
  }
  const product = await startProduct(config, roles);
  const { system } = product;
  const where = config.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : `embedded PostgreSQL in ${config.DATA_DIR}/`;
  const bus = config.NATS_URL ? 'NATS JetStream at NATS_URL' : 'the in-memory bus';
  const serves = roles.includes('ingest') || roles.includes('api');
  const processes = product.workers > 0 ? `${product.workers} HTTP worker ${product.workers === 1 ? 'process' : 'processes'}, ` : '';
  process.stdout.write(
    (serves ? `\nConsentry is running at ${system.url}\n` + `  health: ${system.url}/healthz   readiness: ${system.url}/readyz\n` : '\nConsentry is running\n') +
      `  roles: ${roles.join(', ')} (${processes}PROJECTOR_PARTITIONS=${config.PROJECTOR_PARTITIONS})\n` +
      (product.metricsUrl ? `  metrics: ${product.metricsUrl}\n` : '') +
      `  ledger: ${where}, ${bus}\n` +
      `Press Ctrl+C to stop.\n\n`,
  );
  await new Promise<void>((resolve) => {
    const shutdown = () => resolve();
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    process.once('SIGHUP', shutdown);
  });
  process.stdout.write('Stopping…\n');
  await product.stop();
  return 0;
}
