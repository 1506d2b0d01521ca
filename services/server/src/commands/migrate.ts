// `consentry migrate`: apply migrations and publish the plan catalogue, then exit (start does this
// too). On the embedded default it uses the running server, or, when none runs (a fresh install), starts one for itself and stops it.
import { createPool, type Config } from '@consentry/infra';
import { openDatabase, prepareDatabase } from '../system';
import { createCommandLogger } from './job';

export async function runMigrate(config: Config): Promise<number> {
  const database = await openDatabase(config, createCommandLogger(config), 'prepare');
  const pool = createPool(database.connectionString, { max: 2 });
  try {
    await prepareDatabase(pool);
    process.stdout.write('Migrations applied.\n');
    return 0;
  } finally {
    await pool.end();
    await database.stop();
  }
}
