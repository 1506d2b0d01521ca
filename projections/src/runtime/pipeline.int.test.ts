// The relay and the projector runtime against real Postgres and NATS: live projection over both
// buses, the faults of the ledger-core issue (relay killed mid-stream, projector killed mid-batch,
// NATS unreachable, a second relay), each ending with the projection's totals exactly equal to the
// log's count; and replay reproducing the live read model.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createMemoryBus, createNatsBus, createRecentDigests, eventDigest, readCommittedHead, readHorizonText, readSealedEvents, type Bus, type Checkpoint, type NatsBusOptions } from '@consentry/infra';
import { createTestDatabase, deleteNatsStream, natsUrl, startTcpProxy, uniqueBusConfig, waitFor, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { consentStatsProjection } from '../consent-stats/projection';
import { checkpointNameOf } from '../projection';
import { startRelay } from '../relay/relay';
import {
  appendConsents,
  consentStatsFromLog,
  consentStatsRows,
  countConsentEvents,
  projectedConsentTotal,
  spawnPipelineProcess,
  type PipelineProcess,
} from '../testing/pipeline';
import { startProjector } from './projector';
import { replayProjection } from './replay';

const logger = createLogger({ level: 'silent' });
let db: TestDatabase;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  db = await createTestDatabase('pipeline', { poolSize: 12 });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  await db.pool.query(`DELETE FROM consent_stats_daily`);
  await db.pool.query(`DELETE FROM checkpoints`);
});
afterAll(async () => {
  await db?.drop();
});

async function natsBus(label: string, url = natsUrl, options: Partial<NatsBusOptions> = {}): Promise<{ bus: Bus; stream: string; subjectPrefix: string }> {
  const config = uniqueBusConfig(label);
  const bus = await createNatsBus({ ...config, url, ...options });
  cleanups.push(() => deleteNatsStream(config.stream));
  cleanups.push(() => bus.close());
  return { bus, ...config };
}

function startLive(bus: Bus, subjectPrefix: string) {
  const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix, logger, name: `relay-${subjectPrefix}` });
  const projector = startProjector({
    connectionString: db.connectionString,
    bus,
    subjectPrefix,
    projection: consentStatsProjection,
    logger,
    batchSize: 200,
  });
  cleanups.push(() => relay.stop());
  cleanups.push(() => projector.stop());
  return { relay, projector };
}

async function expectProjectionToMatchLog(timeoutMs = 30_000): Promise<void> {
  const expected = await countConsentEvents(db.pool);
  await waitFor(async () => (await projectedConsentTotal(db.pool)) >= expected, {
    timeoutMs,
    message: `consent stats to reach ${expected}`,
  });
  // Settle: anything still in flight would overshoot.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await projectedConsentTotal(db.pool)).toBe(await countConsentEvents(db.pool));
  expect(await consentStatsRows(db.pool)).toEqual(await consentStatsFromLog(db.pool));
}

function spawnTracked(env: Record<string, string>): PipelineProcess {
  const child = spawnPipelineProcess(env);
  cleanups.push(() => child.kill());
  return child;
}

describe.each([
  ['the in-memory bus', async () => ({ bus: createMemoryBus(uniqueBusConfig('mem')), subjectPrefix: 'test.mem' })],
  ['NATS JetStream', async () => natsBus('live')],
])('live projection over %s', (_name, makeBus) => {
  it('projects every consent, per website and day, exactly once', async () => {
    const { bus, subjectPrefix } = await makeBus();
    if (bus.kind === 'memory') cleanups.push(() => bus.close());
    await appendConsents(db.pool, 600); // before the projector starts: caught up from the log
    startLive(bus, subjectPrefix);
    await appendConsents(db.pool, 1500, 600); // while it runs: delivered by the bus
    await expectProjectionToMatchLog();
  });
});

describe('the relay and the sealer of one process', () => {
  it('leaves the digests of every event it published, in log order, for the sealer', async () => {
    const busConfig = uniqueBusConfig('digests');
    const bus = createMemoryBus(busConfig);
    cleanups.push(() => bus.close());
    await appendConsents(db.pool, 700);
    const recentDigests = createRecentDigests();
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix: busConfig.subjectPrefix, logger, name: 'relay-digests', batchSize: 250, recentDigests });
    cleanups.push(() => relay.stop());
    await appendConsents(db.pool, 300, 700);
    await waitForLogVisible(db.pool);
    const log = await readSealedEvents(db.pool, null, { horizon: await readHorizonText(db.pool) }, 100_000);
    await waitFor(() => recentDigests.size() === log.length, { message: `the relay's digests to cover the ${log.length} events of the log (${recentDigests.size()})` });
    const digests = recentDigests.takeAfter({ transactionId: '0', position: 0 }, 100_000)!;
    expect(digests.map((digest) => [digest.position, digest.digest.toString('hex')])).toEqual(log.map((event) => [event.position, eventDigest(event)]));
  });
});

describe('faults over NATS', () => {
  it('when the relay is killed mid-stream and restarted, nothing is lost or counted twice', async () => {
    const { bus, stream, subjectPrefix } = await natsBus('relaykill');
    const projector = startProjector({ connectionString: db.connectionString, bus, subjectPrefix, projection: consentStatsProjection, logger });
    cleanups.push(() => projector.stop());
    const env = { ROLE: 'relay', DATABASE_URL: db.connectionString, NATS_URL: natsUrl, NATS_STREAM: stream, NATS_SUBJECT_PREFIX: subjectPrefix };

    const first = spawnTracked(env);
    await first.waitForLine('LEADER');
    const appending = appendConsents(db.pool, 3000);
    await waitFor(async () => (await projectedConsentTotal(db.pool)) > 200, { timeoutMs: 20_000, message: 'the relay to publish' });
    await first.kill();
    const publishedBeforeKill = await projectedConsentTotal(db.pool);
    await appending;
    expect(publishedBeforeKill).toBeLessThan(await countConsentEvents(db.pool));

    const second = spawnTracked(env);
    await second.waitForLine('LEADER');
    await expectProjectionToMatchLog();
  });

  it('when its durable is created only after the catch-up, what was published in between is read from the log', async () => {
    // As when a durable is gone (deleted by a rewind that could not finish) and the next leader's
    // bus is slow to create it again during a NATS outage: it starts at the stream's end, after
    // events the catch-up did not see.
    const { bus, subjectPrefix } = await natsBus('latedurable');
    let published: Checkpoint | undefined;
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix, logger, name: 'relay-late', onPublished: (_count, checkpoint) => void (published = checkpoint) });
    cleanups.push(() => relay.stop());
    let createDurable!: () => void;
    const durableMayBeCreated = new Promise<void>((resolve) => (createDurable = resolve));
    const lateBus: Bus = {
      ...bus,
      consume(options) {
        const consumption = durableMayBeCreated.then(() => bus.consume(options));
        return { done: consumption.then((c) => c.done), stop: async () => (await consumption).stop() };
      },
    };
    await appendConsents(db.pool, 300);
    const projector = startProjector({ connectionString: db.connectionString, bus: lateBus, subjectPrefix, projection: consentStatsProjection, logger });
    cleanups.push(() => projector.stop());
    const inLog = await countConsentEvents(db.pool);
    await waitFor(async () => (await projectedConsentTotal(db.pool)) === inLog, { message: `the catch-up to apply the log's ${inLog} consents` });
    await appendConsents(db.pool, 200, 300);
    await waitForLogVisible(db.pool);
    const head = (await readCommittedHead(db.pool))!;
    await waitFor(() => published?.position === head.position, { message: 'the relay to publish the next 200' });
    createDurable();
    await appendConsents(db.pool, 100, 500); // delivered by the bus
    await expectProjectionToMatchLog();
  });

  it('when a projector is killed in the middle of a batch and restarted, its totals equal the log', async () => {
    const { bus, stream, subjectPrefix } = await natsBus('projkill');
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix, logger });
    cleanups.push(() => relay.stop());
    await appendConsents(db.pool, 1000);
    const env = { ROLE: 'projector', DATABASE_URL: db.connectionString, NATS_URL: natsUrl, NATS_STREAM: stream, NATS_SUBJECT_PREFIX: subjectPrefix };

    const stalled = spawnTracked({ ...env, STALL_AT_BATCH: '3' });
    await stalled.waitForLine('STALLED');
    const committedBeforeKill = await projectedConsentTotal(db.pool);
    expect(committedBeforeKill).toBe(100); // two batches of 50 committed; the third is open, uncommitted
    await stalled.kill();
    await appendConsents(db.pool, 500, 1000);

    const restarted = spawnTracked(env);
    await restarted.waitForLine('LEADER');
    await expectProjectionToMatchLog();
  });

  it('when NATS is unreachable for a while and comes back, the projection catches up exactly', async () => {
    const [host, port] = new URL(natsUrl.replace('nats://', 'http://')).host.split(':');
    const proxy = await startTcpProxy({ targetHost: host!, targetPort: Number(port ?? 4222) });
    cleanups.push(() => proxy.close());
    // A pull cut mid-flight is redelivered after the ack wait (30 s in production): shorter here, so
    // the test waits for the catch-up, not for the server's timer.
    const { bus, subjectPrefix } = await natsBus('outage', `nats://${proxy.host}:${proxy.port}`, { ackWaitMs: 3_000, reconnectTimeWaitMs: 250 });
    startLive(bus, subjectPrefix);
    await appendConsents(db.pool, 500);
    await expectProjectionToMatchLog();

    proxy.cut();
    await appendConsents(db.pool, 1000, 500); // the ledger keeps accepting: Postgres is up
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await projectedConsentTotal(db.pool)).toBeLessThan(await countConsentEvents(db.pool));
    proxy.restore();
    await expectProjectionToMatchLog(45_000);
  });

  it('when a second relay starts beside the first, only one publishes, and it takes over when the first dies', async () => {
    const { bus, stream, subjectPrefix } = await natsBus('tworelays');
    const projector = startProjector({ connectionString: db.connectionString, bus, subjectPrefix, projection: consentStatsProjection, logger });
    cleanups.push(() => projector.stop());
    const env = { ROLE: 'relay', DATABASE_URL: db.connectionString, NATS_URL: natsUrl, NATS_STREAM: stream, NATS_SUBJECT_PREFIX: subjectPrefix };

    const first = spawnTracked(env);
    await first.waitForLine('LEADER');
    const second = spawnTracked(env);
    await appendConsents(db.pool, 800);
    await expectProjectionToMatchLog();
    expect(second.output()).not.toContain('LEADER');

    const appending = appendConsents(db.pool, 2000, 800);
    await first.kill();
    await second.waitForLine('LEADER');
    await appending;
    await expectProjectionToMatchLog();
  });
});

describe('replay', () => {
  it('rebuilds the same read model as live projection of the same events', async () => {
    const bus = createMemoryBus(uniqueBusConfig('replay'));
    cleanups.push(() => bus.close());
    startLive(bus, 'test.replay');
    await appendConsents(db.pool, 2500);
    await expectProjectionToMatchLog();
    const live = await consentStatsRows(db.pool);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();

    const summary = await replayProjection(db.pool, consentStatsProjection, { batchSize: 700 });
    expect(summary.events).toBe(await countConsentEvents(db.pool));
    expect(summary.batches).toBe(Math.ceil(summary.events / 700));
    expect(await consentStatsRows(db.pool)).toEqual(live);
  });

  it('runs while the system keeps running, and live projection continues without double counting', async () => {
    const bus = createMemoryBus(uniqueBusConfig('replaylive'));
    cleanups.push(() => bus.close());
    startLive(bus, 'test.replaylive');
    await appendConsents(db.pool, 2000);
    await expectProjectionToMatchLog();

    const appending = appendConsents(db.pool, 3000, 2000);
    const summary = await replayProjection(db.pool, consentStatsProjection, { batchSize: 300 });
    await appending;
    await appendConsents(db.pool, 500, 5000);
    expect(summary.events).toBeGreaterThanOrEqual(2000);
    await expectProjectionToMatchLog();
    const { rows } = await db.pool.query('SELECT position FROM checkpoints WHERE name = $1', [checkpointNameOf(consentStatsProjection)]);
    expect(rows[0].position).toBeGreaterThan(0);
  });
});

describe('batching under steady load', () => {
  /** A consent-stats projector on a database and in-memory bus of its own, noting how many events each batch applied. */
  async function startBatchingProjector(labels: { database: string; bus: string }, batching: { minBatchIntervalMs: number; batchSize?: number }) {
    const own = await createTestDatabase(labels.database);
    cleanups.push(() => own.drop());
    const { subjectPrefix, ...config } = uniqueBusConfig(labels.bus);
    const bus = createMemoryBus({ ...config, subjectPrefix });
    cleanups.push(() => bus.close());
    const batches: number[] = [];
    const projector = startProjector({
      connectionString: own.connectionString,
      bus,
      subjectPrefix,
      projection: consentStatsProjection,
      logger,
      ...batching,
      onAdvanced: (_checkpoint, applied) => batches.push(applied.length),
    });
    cleanups.push(() => projector.stop());
    await waitFor(() => projector.isLeader(), { message: 'the projector to lead' });
    return {
      own,
      batches,
      /** Starts relaying the log to the projector's bus. */
      relay() {
        const relay = startRelay({ connectionString: own.connectionString, bus, subjectPrefix, logger });
        cleanups.push(() => relay.stop());
      },
    };
  }

  it('applies an event after a quiet spell at once, and what arrives in the batch interval after it in one transaction', async () => {
    const { own, batches, relay } = await startBatchingProjector({ database: 'pacing', bus: 'pace' }, { minBatchIntervalMs: 2000 });
    relay();
    // Settled: a first consent projected (by the catch-up from the log or from the bus), then a
    // quiet spell longer than the interval, so the bus is what delivers everything below.
    await appendConsents(own.pool, 1);
    await waitFor(async () => (await projectedConsentTotal(own.pool)) === 1, { message: 'a first consent to be projected' });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    batches.length = 0;

    await appendConsents(own.pool, 1, 1);
    await waitFor(async () => (await projectedConsentTotal(own.pool)) === 2, { message: 'the consent after the quiet spell to be projected' });
    // Five commits a tenth of a second apart, each relayed on its own, while the projector waits out its interval.
    for (let index = 2; index <= 6; index++) {
      await appendConsents(own.pool, 1, index);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await waitFor(async () => (await projectedConsentTotal(own.pool)) === 7, { timeoutMs: 10_000, message: 'all seven consents to be projected' });
    expect(batches).toEqual([1, 5]);
  });

  it('takes the next batch at once after a full one: a backlog is not held to one batch per interval', async () => {
    // Paced, four batches would take three minutes.
    const { own, batches, relay } = await startBatchingProjector({ database: 'pacing-full', bus: 'pacefull' }, { minBatchIntervalMs: 60_000, batchSize: 10 });
    // One commit, relayed in one publish: the bus holds all 35 when it hands over the first batch.
    await appendConsents(own.pool, 35);
    relay();
    await waitFor(async () => (await projectedConsentTotal(own.pool)) === 35, { timeoutMs: 20_000, message: 'all 35 consents to be projected' });
    expect(batches).toEqual([10, 10, 10, 5]);
  });
});
