// The NATS JetStream bus against the shared bus contract on the machine's real NATS server, plus
// what only a network adapter can get wrong: outages (through a TCP proxy this test controls, since
// the server is shared) and consumers that died with deliveries outstanding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { describeBusContract } from './bus.contract';
import type { Bus, BusConfig, DeliveredMessage, OutgoingMessage } from './bus';
import { createNatsBus, type NatsBusOptions } from './nats-bus';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy';
import { waitFor } from '../testing/wait-for';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

let admin: NatsConnection;
let jsm: JetStreamManager;

beforeAll(async () => {
  admin = await connect({ servers: natsUrl });
  jsm = await jetstreamManager(admin);
});

afterAll(async () => {
  await admin.close();
});

/** A stream name and subject prefix no other test (here or in another process) uses. */
function uniqueConfig(): BusConfig {
  const suffix = randomUUID().replaceAll('-', '').slice(0, 12);
  return { stream: `TEST_BUS_${suffix}`, subjectPrefix: `test_bus_${suffix}` };
}

async function deleteStream(stream: string): Promise<void> {
  await jsm.streams.delete(stream).catch(() => undefined);
}

describeBusContract('NATS JetStream', async () => {
  const config = uniqueConfig();
  const bus = await createNatsBus({ ...config, url: natsUrl, name: 'consentry-bus-contract' });
  return { bus, config, cleanup: () => deleteStream(config.stream) };
});

const encoder = new TextEncoder();
const message = (config: BusConfig, n: number): OutgoingMessage => ({
  subject: `${config.subjectPrefix}.consent.given`,
  id: `evt-${n}`,
  data: encoder.encode(`payload-${n}`),
});
const range = (config: BusConfig, from: number, count: number): OutgoingMessage[] =>
  Array.from({ length: count }, (_, i) => message(config, from + i));

describe('the NATS bus', () => {
  describe('when the stream already exists', () => {
    it('a second bus on it starts and sees the same messages', async () => {
      const config = uniqueConfig();
      const first = await createNatsBus({ ...config, url: natsUrl });
      const second = await createNatsBus({ ...config, url: natsUrl });
      try {
        await first.publish([message(config, 1)]);
        const received: string[] = [];
        const reader = second.consume({
          durable: 'reader',
          onBatch: async (batch) => void received.push(...batch.map((m) => m.id)),
        });
        await waitFor(() => received.length === 1);
        await reader.stop();
        expect(received).toEqual(['evt-1']);
      } finally {
        await first.close();
        await second.close();
        await deleteStream(config.stream);
      }
    });
  });

  describe('when the stream is to have more replicas than a single server can hold', () => {
    it('creating the bus fails, saying why', async () => {
      const config = uniqueConfig();
      await expect(createNatsBus({ ...config, url: natsUrl, replicas: 3 })).rejects.toThrow(/replicas/);
      await deleteStream(config.stream);
    });
  });

  describe('when a consumer died with deliveries outstanding', () => {
    it('the next consumption receives them first, in order, marked redelivered', async () => {
      const config = uniqueConfig();
      const bus = await createNatsBus({ ...config, url: natsUrl });
      try {
        await bus.publish(range(config, 1, 2));
        const processed: DeliveredMessage[] = [];
        const first = bus.consume({
          durable: 'projector',
          onBatch: async (batch) => void processed.push(...batch),
        });
        await waitFor(() => processed.length === 2);
        await first.stop();

        // A process that fetched three messages and crashed before acknowledging them: without
        // the rewind, JetStream would hand the next consumer evt-6.. and these only after ack_wait.
        await bus.publish(range(config, 3, 3));
        const crashed = await connect({ servers: natsUrl });
        const fetched = await (await jetstream(crashed).consumers.get(config.stream, 'projector')).fetch({
          max_messages: 3,
          expires: 1_000,
        });
        const crashedIds: number[] = [];
        for await (const m of fetched) crashedIds.push(m.seq);
        expect(crashedIds).toEqual([3, 4, 5]);
        await crashed.close();
        await bus.publish(range(config, 6, 2));

        const second: DeliveredMessage[] = [];
        const resumed = bus.consume({ durable: 'projector', onBatch: async (b) => void second.push(...b) });
        await waitFor(() => second.some((m) => m.id === 'evt-7'), { timeoutMs: 10_000 });
        await resumed.stop();

        expect(second.map((m) => m.id)).toEqual(['evt-3', 'evt-4', 'evt-5', 'evt-6', 'evt-7']);
        expect(second.map((m) => m.redelivered)).toEqual([true, true, true, false, false]);
      } finally {
        await bus.close();
        await deleteStream(config.stream);
      }
    });
  });

  describe('when deliveries are lost in flight during a consumption', () => {
    it('later messages do not overtake it', async () => {
      const config = uniqueConfig();
      const bus = await createNatsBus({ ...config, url: natsUrl });
      try {
        await bus.publish([message(config, 0)]);
        const received: DeliveredMessage[] = [];
        let positioned = 0;
        const consumption = bus.consume({
          durable: 'projector',
          onBatch: async (batch) => void received.push(...batch),
          onPositioned: async () => void positioned++,
        });
        await waitFor(() => received.length === 1);
        expect(positioned).toBe(1);

        // Another pull request on the same durable, first in line, whose messages never reach the
        // bus — as when the server answers a request the client has given up on. Its deliveries stay
        // unacknowledged until ack_wait, and without care the bus would process evt-3 before them.
        const thief = await connect({ servers: natsUrl });
        const stolen = await (await jetstream(thief).consumers.get(config.stream, 'projector')).fetch({
          max_messages: 2,
          expires: 10_000,
        });
        const draining = (async () => {
          for await (const _ of stolen) {
            // never acknowledged
          }
        })().catch(() => undefined);
        await thief.flush();
        await waitFor(async () => (await jsm.consumers.info(config.stream, 'projector')).num_waiting >= 2);
        await bus.publish(range(config, 1, 3));
        await waitFor(() => received.some((m) => m.id === 'evt-3'), { timeoutMs: 10_000 });
        await consumption.stop();

        const ids = received.map((m) => m.id);
        expect(ids.slice(0, 4)).toEqual(['evt-0', 'evt-1', 'evt-2', 'evt-3']);
        // The rewind repositioned the durable: the consumer heard of it, to read what it may miss.
        expect(positioned).toBeGreaterThanOrEqual(2);
        expect(new Set(ids).size).toBe(ids.length);
        await thief.close();
        await draining;
      } finally {
        await bus.close();
        await deleteStream(config.stream);
      }
    });
  });

  describe('when the connection to NATS is cut and restored', () => {
    let proxy: TcpProxy;
    let bus: Bus;
    let config: BusConfig;
    const logged: string[] = [];

    beforeAll(async () => {
      const target = new URL(natsUrl);
      proxy = await startTcpProxy({ targetHost: target.hostname, targetPort: Number(target.port || 4222) });
      config = uniqueConfig();
      const options: NatsBusOptions = {
        ...config,
        url: `nats://${proxy.host}:${proxy.port}`,
        name: 'consentry-bus-outage-test',
        reconnectTimeWaitMs: 250,
        publishTimeoutMs: 1_500,
        logger: {
          info: (_details, text) => void logged.push(text),
          warn: (_details, text) => void logged.push(text),
          error: (_details, text) => void logged.push(text),
        },
      };
      bus = await createNatsBus(options);
    });

    afterAll(async () => {
      await bus.close();
      await proxy.close();
      await deleteStream(config.stream);
    });

    it('publish rejects within its timeout, then publishing and consuming continue with every message processed once, in order', async () => {
      const processed: DeliveredMessage[] = [];
      let blockAt: string | undefined;
      let blocked: (() => void) | undefined;
      const consumption = bus.consume({
        durable: 'projector',
        maxBatch: 50,
        onBatch: async (batch) => {
          processed.push(...batch);
          if (blockAt !== undefined && batch.some((m) => m.id === blockAt)) {
            blockAt = undefined;
            await new Promise<void>((resolve) => {
              blocked = resolve;
            });
          }
        },
      });
      const processedIds = () => new Set(processed.map((m) => m.id));
      const publishUntilAccepted = (messages: OutgoingMessage[]) =>
        waitFor(
          async () => {
            await bus.publish(messages);
            return true;
          },
          { timeoutMs: 20_000, intervalMs: 100, message: 'publish to succeed again' },
        );

      // Before the outage.
      const before = range(config, 1, 100);
      await bus.publish(before);
      await waitFor(() => processedIds().has('evt-100'), { timeoutMs: 10_000 });

      // An outage while idle: publish fails once its retry budget is spent rather than hang (a hang
      // would end in the test's own timeout).
      proxy.cut();
      const during = range(config, 101, 400);
      await expect(bus.publish(during)).rejects.toThrow();
      proxy.restore();
      await publishUntilAccepted(during);
      await waitFor(() => processedIds().has('evt-500'), { timeoutMs: 15_000 });

      // An outage in the middle of a backlog, with a batch in progress: its acks and the
      // deliveries in flight are lost.
      const backlog = range(config, 501, 2_000);
      blockAt = 'evt-800';
      await bus.publish(backlog);
      await waitFor(() => blocked, { timeoutMs: 10_000, message: 'the consumer to reach evt-800' });
      proxy.cut();
      blocked?.();
      const refusedBefore = proxy.connectionCount;
      // The client noticed and is trying to reconnect.
      await waitFor(() => proxy.connectionCount > refusedBefore, { timeoutMs: 10_000 });
      proxy.restore();
      await waitFor(() => processedIds().has('evt-2500'), { timeoutMs: 40_000 });
      await publishUntilAccepted([message(config, 2_501)]);
      await waitFor(() => processedIds().has('evt-2501'), { timeoutMs: 10_000 });
      await consumption.stop();
      // Both outages really happened and healed.
      expect(logged.filter((text) => text === 'bus reconnected to NATS')).toHaveLength(2);

      const firstSeen: string[] = [];
      const seen = new Set<string>();
      for (const m of processed) {
        if (seen.has(m.id)) {
          // A message processed again is allowed only as a marked redelivery.
          expect(m.redelivered, `${m.id} delivered twice without being marked`).toBe(true);
          continue;
        }
        seen.add(m.id);
        firstSeen.push(m.id);
      }
      expect(firstSeen).toEqual(range(config, 1, 2_501).map((m) => m.id));
    });
  });
});
