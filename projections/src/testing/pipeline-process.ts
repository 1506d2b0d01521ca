// A relay or a projector in a process of its own, so fault tests can kill it for real (SIGKILL: no
// cleanup, connections dropped mid-transaction) and start another. Configured by environment:
//   ROLE=relay|projector, DATABASE_URL, NATS_URL, NATS_STREAM, NATS_SUBJECT_PREFIX,
//   STALL_AT_BATCH=N (projector: after writing batch N, stall inside its transaction and print STALLED)
// Prints LEADER once it holds its lock.
import { createLogger, createNatsBus, type DbTransaction, type StoredEvent } from '@consentry/infra';
import { consentStatsProjection } from '../consent-stats/projection';
import type { Projection } from '../projection';
import { startRelay } from '../relay/relay';
import { startProjector } from '../runtime/projector';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const role = env('ROLE');
const connectionString = env('DATABASE_URL');
const subjectPrefix = env('NATS_SUBJECT_PREFIX');
const stallAtBatch = Number(process.env.STALL_AT_BATCH ?? 0);
const logger = createLogger({ level: 'warn', name: `test-${role}` });
const bus = await createNatsBus({ url: env('NATS_URL'), stream: env('NATS_STREAM'), subjectPrefix, replicas: Number(process.env.NATS_STREAM_REPLICAS ?? 1) });

let batches = 0;
const projection: Projection = {
  ...consentStatsProjection,
  async apply(events: readonly StoredEvent[], tx: DbTransaction) {
    await consentStatsProjection.apply(events, tx);
    batches++;
    if (stallAtBatch > 0 && batches === stallAtBatch) {
      process.stdout.write('STALLED\n');
      await new Promise(() => undefined);
    }
  },
};

const running =
  role === 'relay'
    ? startRelay({ connectionString, bus, subjectPrefix, logger, batchSize: 50 })
    : startProjector({ connectionString, bus, subjectPrefix, projection, logger, batchSize: 50 });

const announce = setInterval(() => {
  if (running.isLeader()) {
    process.stdout.write('LEADER\n');
    clearInterval(announce);
  }
}, 20);
