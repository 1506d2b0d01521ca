// Applies the SQL migrations in infra/migrations with postgres-migrations (which takes its own
// advisory lock, so several processes starting at once apply each migration exactly once).
import { fileURLToPath } from 'node:url';
import { migrate } from 'postgres-migrations';
import type { Db } from './pool';

export const migrationsDirectory = fileURLToPath(new URL('../../migrations', import.meta.url));

export async function migrateDatabase(pool: Db): Promise<void> {
  const client = await pool.connect();
  try {
    await migrate({ client }, migrationsDirectory, { logger: () => undefined });
  } finally {
    client.release();
  }
}
