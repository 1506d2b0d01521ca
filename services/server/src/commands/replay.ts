// `consentry replay [--projection NAME]`: rebuilds projections from the event log with a progress
// bar, while the rest of the system keeps running (see projections/src/runtime/replay.ts).
import { parseArgs } from 'node:util';
import { createPool, migrateDatabase, type Config } from '@consentry/infra';
import { allProjections, findProjection, replayProjection, type ReplaySummary } from '@consentry/projections';
import cliProgress from 'cli-progress';
import { openDatabase } from '../system';
import { createCommandLogger } from './job';

export async function runReplay(config: Config, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { projection: { type: 'string' }, 'batch-size': { type: 'string' } },
    strict: true,
  });
  const names = allProjections.map((projection) => projection.name);
  const projections = values.projection === undefined ? allProjections : [findProjection(values.projection)];
  if (projections.some((projection) => projection === undefined)) {
    process.stderr.write(`Unknown projection: ${values.projection}. Known projections: ${names.join(', ')}\n`);
    return 2;
  }
  const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1_000_000)) {
    process.stderr.write('--batch-size must be a whole number from 1 to 1000000\n');
    return 2;
  }

  const database = await openDatabase(config, createCommandLogger(config), 'connect');
  const pool = createPool(database.connectionString, { max: 4 });
  const summaries: ReplaySummary[] = [];
  try {
    await migrateDatabase(pool);
    for (const projection of projections) {
      if (!projection) continue;
      const bar = new cliProgress.SingleBar(
        { format: `${projection.name} [{bar}] {percentage}% | {value}/{total} events | {eta_formatted} left`, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      let barStarted = false;
      const summary = await replayProjection(pool, projection, {
        ...(batchSize === undefined ? {} : { batchSize }),
        partitions: config.PROJECTOR_PARTITIONS,
        onProgress: ({ events, total }) => {
          if (!barStarted) {
            bar.start(total, 0);
            barStarted = true;
          }
          bar.setTotal(total);
          bar.update(events);
        },
      });
      if (barStarted) bar.stop();
      summaries.push(summary);
    }
  } finally {
    await pool.end();
    await database.stop();
  }
  for (const summary of summaries) {
    process.stdout.write(
      `Replayed ${summary.projection}: ${summary.events.toLocaleString('en-US')} events in ${summary.batches} batches, ` +
        `${(summary.durationMs / 1000).toFixed(2)} s (${Math.round(summary.eventsPerSecond).toLocaleString('en-US')} events/s); ` +
        `checkpoint (${summary.checkpoint.transactionId}, ${summary.checkpoint.position}).\n`,
    );
    if (summary.parked > 0) {
      process.stderr.write(
        `${summary.projection}: ${summary.parked.toLocaleString('en-US')} events could not be applied and are set aside ` +
          `(consentry dead-letters list --projection ${summary.projection}).\n`,
      );
    }
  }
  // The read models are rebuilt either way; events still set aside are a failure to look into.
  return summaries.some((summary) => summary.parked > 0) ? 1 : 0;
}
