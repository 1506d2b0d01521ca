// The in-memory bus against the shared bus contract, plus what only it has to get right on its
// own: bounded memory (deduplication ids, trimming) and its time windows.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { describeBusContract } from './bus.contract';
import type { DeliveredMessage, OutgoingMessage } from './bus';
import { createMemoryBus } from './memory-bus';
import { waitFor } from '../testing/wait-for';

describeBusContract('memory', async () => {
  const config = { stream: `CONTRACT_${randomUUID().slice(0, 8)}`, subjectPrefix: 'contract' };
  return { bus: createMemoryBus(config), config, cleanup: async () => undefined };
});

const config = { stream: 'MEMORY', subjectPrefix: 'memory' };
const message = (id: string): OutgoingMessage => ({
  subject: 'memory.consent.given',
  id,
  data: new Uint8Array([1]),
});

describe('the memory bus', () => {
  describe('when a message id comes back after the deduplication window', () => {
    it('is stored again', async () => {
      let now = 1_000;
      const bus = createMemoryBus(config, { duplicateWindowMs: 60_000, now: () => now });
      await bus.publish([message('a')]);
      now += 59_999;
      await bus.publish([message('a')]);
      expect(bus.stats().lastSeq).toBe(1);
      now += 2;
      await bus.publish([message('a')]);
      expect(bus.stats().lastSeq).toBe(2);
      await bus.close();
    });
  });

  describe('when more ids arrive than it may remember', () => {
    it('forgets the oldest first', async () => {
      const bus = createMemoryBus(config, { maxDuplicateIds: 3 });
      await bus.publish(['a', 'b', 'c', 'd'].map(message));
      expect(bus.stats().duplicateIds).toBe(3);
      await bus.publish([message('d'), message('a')]);
      expect(bus.stats().lastSeq).toBe(5);
      await bus.close();
    });
  });

  describe('when no durable consumer exists', () => {
    it('keeps at most the configured number of messages', async () => {
      const bus = createMemoryBus(config, { maxRetainedWithoutConsumers: 10 });
      await bus.publish(Array.from({ length: 25 }, (_, i) => message(`m${i}`)));
      expect(bus.stats()).toMatchObject({ retained: 10, firstSeq: 16, lastSeq: 25 });

      const received: DeliveredMessage[] = [];
      const reader = bus.consume({ durable: 'late', onBatch: async (batch) => void received.push(...batch) });
      await waitFor(() => received.length === 10);
      expect(received[0]?.seq).toBe(16);
      await reader.stop();
      await bus.close();
    });
  });

  describe('when every durable consumer has acknowledged a message', () => {
    it('drops it', async () => {
      const bus = createMemoryBus(config);
      const seen = { fast: 0, slow: 0 };
      let releaseSlow: () => void = () => undefined;
      const slowGate = new Promise<void>((resolve) => {
        releaseSlow = resolve;
      });
      const fast = bus.consume({ durable: 'fast', onBatch: async (b) => void (seen.fast += b.length) });
      const slow = bus.consume({
        durable: 'slow',
        onBatch: async (b) => {
          await slowGate;
          seen.slow += b.length;
        },
      });
      await bus.publish(Array.from({ length: 100 }, (_, i) => message(`m${i}`)));
      await waitFor(() => seen.fast === 100);
      // The slow consumer still holds everything back.
      expect(bus.stats().retained).toBe(100);
      releaseSlow();
      await waitFor(() => seen.slow === 100);
      await waitFor(() => bus.stats().retained === 0);
      await Promise.all([fast.stop(), slow.stop()]);
      await bus.close();
    });
  });

  describe('when the slowest running consumer is maxBacklog messages behind', () => {
    it('holds a publish back, storing nothing of it, until that consumer acknowledges', async () => {
      const bus = createMemoryBus(config, { maxBacklog: 10 });
      let releaseSlow: () => void = () => undefined;
      const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
      let seen = 0;
      const slow = bus.consume({
        durable: 'slow',
        maxBatch: 100,
        onBatch: async (batch) => {
          await slowGate;
          seen += batch.length;
        },
      });
      await waitFor(() => bus.stats().lastSeq === 0); // the consumer is running before anything arrives
      await bus.publish(Array.from({ length: 10 }, (_, i) => message(`a${i}`)));
      let held = true;
      const publishing = bus.publish([message('b0'), message('b1')]).then(() => (held = false));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(held).toBe(true);
      expect(bus.stats().lastSeq).toBe(10);

      releaseSlow();
      await publishing;
      expect(bus.stats().lastSeq).toBe(12);
      await waitFor(() => seen === 12);
      await slow.stop();
      await bus.close();
    });

    it('does not wait for a consumer that has stopped (it resumes from its floor), and a close ends the wait', async () => {
      const bus = createMemoryBus(config, { maxBacklog: 5 });
      let seen = 0;
      const stopped = bus.consume({ durable: 'stopped', onBatch: async (batch) => void (seen += batch.length) });
      await stopped.stop();
      for (let from = 0; from < 20; from += 5) await bus.publish(Array.from({ length: 5 }, (_, i) => message(`s${from + i}`)));
      expect(bus.stats().lastSeq).toBe(20);
      const resumed = bus.consume({ durable: 'stopped', onBatch: async (batch) => void (seen += batch.length) });
      await waitFor(() => seen === 20);
      await resumed.stop();

      let releaseStuck: () => void = () => undefined;
      const stuckGate = new Promise<void>((resolve) => (releaseStuck = resolve));
      bus.consume({ durable: 'stuck', onBatch: () => stuckGate });
      await bus.publish(Array.from({ length: 5 }, (_, i) => message(`t${i}`)));
      const waiting = expect(bus.publish([message('u')])).rejects.toThrow('bus is closed');
      const closing = bus.close();
      await waiting;
      expect(bus.stats().lastSeq).toBe(25);
      releaseStuck();
      await closing;
    });
  });

  describe('when messages outlive the maximum age', () => {
    it('drops them even if unacknowledged, like JetStream', async () => {
      let now = 0;
      const bus = createMemoryBus(config, { maxAgeMs: 1_000, now: () => now });
      await bus.publish([message('old')]);
      now = 1_500;
      await bus.publish([message('new')]);
      expect(bus.stats()).toMatchObject({ retained: 1, firstSeq: 2 });
      await bus.close();
    });
  });

  describe('when a durable is already being consumed', () => {
    it('refuses a second consumption of it', async () => {
      const bus = createMemoryBus(config);
      const first = bus.consume({ durable: 'projector', onBatch: async () => undefined });
      const second = bus.consume({ durable: 'projector', onBatch: async () => undefined });
      await expect(second.done).rejects.toThrow(/already being consumed/);
      await first.stop();
      await bus.close();
    });
  });

  describe('when a message carries its decoded value', () => {
    it('hands that very value, frozen, to every consumer, and the bytes as well', async () => {
      const bus = createMemoryBus(config);
      const value = { eventId: 'e-1', data: { purposes: ['analytics'] } };
      const seen = new Map<string, DeliveredMessage[]>();
      const consumers = ['stats', 'records'].map((durable) =>
        bus.consume({ durable, deliverPolicy: 'all', onBatch: async (batch) => void seen.set(durable, [...(seen.get(durable) ?? []), ...batch]) }),
      );
      await bus.publish([{ ...message('e-1'), value }, message('e-2')]);
      await waitFor(() => seen.get('stats')?.length === 2 && seen.get('records')?.length === 2);
      for (const durable of ['stats', 'records']) {
        const [first, second] = seen.get(durable)!;
        expect(first!.value).toBe(value);
        expect(Object.isFrozen(value) && Object.isFrozen(value.data) && Object.isFrozen(value.data.purposes)).toBe(true);
        expect([...first!.data]).toEqual([1]);
        expect(second!.value).toBeUndefined();
      }
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await bus.close();
    });

    it('makes its bytes only when a consumer reads them, once, and keeps what the publisher handed over', async () => {
      const bus = createMemoryBus(config);
      let encodings = 0;
      const value = { eventId: 'e-1' };
      const lazy = {
        subject: 'memory.consent.given',
        id: 'e-1',
        get data() {
          encodings++;
          return new Uint8Array([7, 8]);
        },
        value,
      };
      const seen = new Map<string, DeliveredMessage[]>();
      const consumers = ['stats', 'records'].map((durable) =>
        bus.consume({ durable, deliverPolicy: 'all', onBatch: async (batch) => void seen.set(durable, [...(seen.get(durable) ?? []), ...batch]) }),
      );
      await bus.publish([lazy]);
      await waitFor(() => seen.get('stats')?.length === 1 && seen.get('records')?.length === 1);
      expect(seen.get('stats')![0]!.value).toBe(value);
      expect(encodings).toBe(0);
      const bytes = seen.get('stats')![0]!.data;
      expect([...bytes]).toEqual([7, 8]);
      expect(seen.get('records')![0]!.data).toBe(bytes);
      expect(encodings).toBe(1);
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await bus.close();
    });
  });
});
