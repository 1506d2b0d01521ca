// `consentry start`: the whole product in one process until SIGINT, SIGTERM or SIGHUP (its terminal closed).
import type { Config } from '@consentry/infra';
import { startSystem } from '../system';

export async function runStart(config: Config): Promise<number> {
  const system = await startSystem(config);
  const where = config.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : `embedded PostgreSQL in ${config.DATA_DIR}/`;
  const bus = config.NATS_URL ? 'NATS JetStream at NATS_URL' : 'the in-memory bus';
  process.stdout.write(
    `\nConsentry is running at ${system.url}\n` +
      `  health: ${system.url}/healthz   readiness: ${system.url}/readyz\n` +
      `  metrics: ${system.metricsUrl}\n` +
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
  await system.stop();
  return 0;
}
