// The NATS JetStream bus on a real 3-node cluster (stream replicas 3): the shared bus contract, and
// the promise production relies on when a node dies. A node is killed -9 while messages flow —
// first the stream's leader, then the node the consumer is connected to — and restarted; every
// message whose publish was acknowledged must reach the consumer, in publish order, stored once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { describeBusContract } from './bus.contract';
import type { Bus, BusConfig, BusLogger, Consumption, DeliveredMessage, OutgoingMessage } from './index';
import { createNatsBus } from './nats-bus';
import { deleteNatsStream } from '../testing/nats-streams';
import { startNatsCluster, type NatsCluster } from '../testing/nats-cluster';
import { waitFor } from '../testing/wait-for';

let cluster: NatsCluster;

beforeAll(async () => {
  cluster = await startNatsCluster({ nodes: 3, label: 'bus' });
});

afterAll(async () => {
  await cluster?.stop();
});

function uniqueConfig(): BusConfig {
  const suffix = randomUUID().replaceAll('-', '').slice(0, 12);
  return { stream: `TEST_CLUSTER_${suffix}`, subjectPrefix: `test_cluster_${suffix}` };
}

describeBusContract('NATS JetStream cluster (3 nodes, 3 replicas)', async () => {
  const config = uniqueConfig();
  const bus = await createNatsBus({ ...config, url: cluster.url, replicas: 3, name: 'consentry-bus-cluster-contract' });
  return { bus, config, cleanup: () => deleteNatsStream(config.stream, cluster.url) };
});

describe('the NATS bus on a 3-node cluster', () => {
  describe('when a node dies while messages are published and consumed', () => {
    let publisher: Bus | undefined;
    let consumer: Bus | undefined;
    let config: BusConfig;

    afterAll(async () => {
      await publisher?.close();
      await consumer?.close();
      if (config !== undefined) await deleteNatsStream(config.stream, cluster.url).catch(() => undefined);
    });

    // Each wait below has its own deadline; on a busy machine elections can add up past the default.
    it('every acknowledged message is delivered in publish order and stored once, with repeats marked redelivered', { timeout: 120_000 }, async () => {
      config = uniqueConfig();
      const logged: string[] = [];
      const logger: BusLogger = {
        info: (_details, text) => void logged.push(text),
        warn: (_details, text) => void logged.push(text),
        error: (_details, text) => void logged.push(`error: ${text}`),
      };
      // Two buses, as the relay and a projector are two processes: their connections may sit on
      // different nodes, and each must find its way on its own.
      // Short request timeouts: a request that went to the dead node is given up on sooner.
      const options = { ...config, url: cluster.url, replicas: 3, reconnectTimeWaitMs: 100, requestTimeoutMs: 2_000, logger };
      publisher = await createNatsBus({ ...options, name: 'cluster-test-publisher' });
      consumer = await createNatsBus({ ...options, name: 'cluster-test-consumer' });

      const received: DeliveredMessage[] = [];
      const receivedIds = new Set<string>();
      const consumption: Consumption = consumer.consume({
        durable: 'projector',
        maxBatch: 100,
        onBatch: async (batch) => {
          received.push(...batch);
          for (const message of batch) receivedIds.add(message.id);
        },
      });

      // A relay-like publisher: batches of ids in order, each published until acknowledged (the
      // relay publishes the same batch again when publish rejects), then the next.
      const acknowledged: string[] = [];
      let rejections = 0;
      let publishing = true;
      const encoder = new TextEncoder();
      const batchOf = (from: number): OutgoingMessage[] =>
        Array.from({ length: 10 }, (_, i) => ({
          subject: `${config.subjectPrefix}.consent.given`,
          id: `evt-${from + i}`,
          data: encoder.encode(`payload-${from + i}`),
        }));
      const publishing$ = (async () => {
        let next = 1;
        while (publishing) {
          const batch = batchOf(next);
          try {
            await publisher!.publish(batch);
          } catch {
            rejections++;
            await new Promise((resolve) => setTimeout(resolve, 100));
            continue;
          }
          acknowledged.push(...batch.map((message) => message.id));
          next += batch.length;
          // A steady flow rather than a flood: the two cores also run three servers.
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();

      /** Waits until `count` more messages are acknowledged and everything acknowledged is received. */
      const flowing = async (count: number, what: string) => {
        const target = acknowledged.length + count;
        await waitFor(() => acknowledged.length >= target, { timeoutMs: 30_000, message: `publishing to go on ${what}` });
        const upTo = acknowledged.slice();
        await waitFor(() => upTo.every((id) => receivedIds.has(id)), {
          timeoutMs: 30_000,
          intervalMs: 50,
          message: `consuming to go on ${what}`,
        });
      };

      try {
        await flowing(200, 'before any node dies');

        // The stream's leader dies: its raft group elects another, publishes in flight are lost.
        const before = await cluster.waitForStreamReplicas(config.stream);
        const leader = before.leader!;
        await cluster.kill(leader, 'SIGKILL');
        await flowing(300, 'with the stream leader dead');
        // Asked until answered: the harness's own connection may have been on the dead node too.
        const after = await waitFor(
          async () => {
            const placement = await cluster.streamPlacement(config!.stream);
            return placement.leader === undefined ? undefined : placement;
          },
          { timeoutMs: 30_000, intervalMs: 200, message: 'the stream to name its leader' },
        );
        expect(after.leader).not.toBe(leader);
        await cluster.restart(leader);
        await cluster.waitForStreamReplicas(config.stream);
        await flowing(100, 'after the old leader came back');

        // The node the consumer is connected to dies: its connection and deliveries in flight go.
        const { index: consumerNode } = await waitFor(
          async () => {
            for (const node of cluster.nodes) {
              if ((await cluster.connectionNames(node.index)).includes('cluster-test-consumer')) return node;
            }
            return undefined;
          },
          { timeoutMs: 10_000, message: "the consumer's connection to show in a node's /connz" },
        );
        await cluster.kill(consumerNode, 'SIGKILL');
        await flowing(300, "with the consumer's node dead");
        await cluster.restart(consumerNode);
        await cluster.waitForStreamReplicas(config.stream);
        await flowing(100, 'after every node is back');
      } finally {
        publishing = false;
        await publishing$;
      }
      await waitFor(() => acknowledged.every((id) => receivedIds.has(id)), {
        timeoutMs: 30_000,
        intervalMs: 50,
        message: 'every acknowledged message to be received',
      });
      await consumption.stop();

      // Nothing lost, nothing extra, in publish order: a projector skips whatever is at or before its
      // checkpoint, so a message that arrived after a later one would be lost to it.
      const firstSeen: string[] = [];
      const seen = new Set<string>();
      for (const message of received) {
        if (seen.has(message.id)) {
          expect(message.redelivered, `${message.id} delivered again without being marked`).toBe(true);
          continue;
        }
        seen.add(message.id);
        firstSeen.push(message.id);
      }
      expect(firstSeen).toEqual(acknowledged);
      // Stored once each, however often a publish was repeated.
      const admin = await connect({ servers: [...cluster.urls] });
      try {
        const info = await (await jetstreamManager(admin)).streams.info(config.stream);
        expect(info.state.messages).toBe(acknowledged.length);
      } finally {
        await admin.close();
      }
      expect(logged).not.toContain('error: a retried message was stored after a later one of its batch');
      // The failures really happened: the consumer lost its connection, publishing was retried.
      expect(logged).toContain('bus reconnected to NATS');
      expect(logged).toContain('messages not acknowledged by JetStream; publishing them again');
      console.info(
        `cluster failover: ${acknowledged.length} acknowledged, ${received.length - firstSeen.length} redelivered, ` +
          `${rejections} publish rejections`,
      );
    });
  });
});
