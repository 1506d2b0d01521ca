// `consentry migrate`: apply migrations and exit (start does this too).
import { createLogger, createPool, migrateDatabase, type Config } from '@consentry/infra';
import { openDatabase } from '../system';

export async function runMigrate(config: Config): Promise<number> {
  const logger = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const database = await openDatabase(config, logger);
  const pool = createPool(database.connectionString, { max: 2 });
  try {
    await migrateDatabase(pool);
    process.stdout.write('Migrations applied.\n');
    return 0;
  } finally {
    await pool.end();
    await database.stop();
  }
}
