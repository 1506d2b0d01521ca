// The bus contract as tests: every adapter runs this same suite (memory-bus.unit.test.ts,
// nats-bus.int.test.ts), so code above the bus cannot tell the adapters apart. Each test states one
// promise of bus.ts as a state, and checks exact sequences rather than "at least": an extra or
// reordered delivery is exactly the kind of bug that corrupts a projection.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Bus,
  BusConfig,
  ConsumeOptions,
  Consumption,
  DeliveredMessage,
  OutgoingMessage,
} from './bus';
import { waitFor } from '../testing/wait-for';

export interface BusUnderTest {
  readonly bus: Bus;
  readonly config: BusConfig;
  /** Removes what the bus left behind (for NATS: the stream); called after `bus.close()`. */
  cleanup(): Promise<void>;
}

interface Collector {
  readonly consumption: Consumption;
  readonly received: DeliveredMessage[];
  readonly batches: DeliveredMessage[][];
  ids(): string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function describeBusContract(name: string, makeBus: () => Promise<BusUnderTest>): void {
  describe(`the ${name} bus contract`, () => {
    let bus: Bus;
    let config: BusConfig;
    let cleanup: () => Promise<void>;
    const consumptions: Consumption[] = [];

    beforeEach(async () => {
      ({ bus, config, cleanup } = await makeBus());
    });

    afterEach(async () => {
      await Promise.all(consumptions.splice(0).map((consumption) => consumption.stop()));
      await bus.close();
      await cleanup();
    });

    const subject = (...tokens: string[]): string => [config.subjectPrefix, ...tokens].join('.');
    const message = (n: number, ...tokens: string[]): OutgoingMessage => ({
      subject: subject(...(tokens.length > 0 ? tokens : ['consent', 'given'])),
      id: `evt-${n}`,
      data: encoder.encode(`payload-${n}`),
    });
    const range = (from: number, count: number): OutgoingMessage[] =>
      Array.from({ length: count }, (_, i) => message(from + i));
    const idsOf = (messages: readonly { id: string }[]): string[] => messages.map((m) => m.id);

    function collect(
      options: Omit<ConsumeOptions, 'onBatch'> & {
        onBatch?: (batch: readonly DeliveredMessage[]) => Promise<void>;
      },
    ): Collector {
      const received: DeliveredMessage[] = [];
      const batches: DeliveredMessage[][] = [];
      const consumption = bus.consume({
        ...options,
        onBatch: async (batch) => {
          await options.onBatch?.(batch);
          batches.push([...batch]);
          received.push(...batch);
        },
      });
      consumptions.push(consumption);
      return { consumption, received, batches, ids: () => idsOf(received) };
    }

    const receivedId = (collector: Collector, id: string, timeoutMs = 10_000) =>
      waitFor(() => collector.ids().includes(id), { timeoutMs, message: `${id} to be received` });

    /**
     * Creating a consumer is asynchronous and has no signal of its own: publish probes until one is
     * received, which proves the consumer exists (needed before testing deliverPolicy new).
     */
    let probes = 0;
    const waitForConsumer = (collector: Collector) =>
      waitFor(
        async () => {
          probes++;
          await bus.publish([{ ...message(100_000 + probes), id: `probe-${probes}` }]);
          return collector.ids().some((id) => id.startsWith('probe-'));
        },
        { timeoutMs: 10_000, intervalMs: 50, message: 'the consumer to exist' },
      );

    it('delivers what was published with its subject, id, data and increasing stream sequence', async () => {
      await bus.publish([message(1), message(2, 'analytics', 'pageview'), message(3)]);
      const reader = collect({ durable: 'reader' });
      await receivedId(reader, 'evt-3');

      expect(reader.received.map((m) => [m.subject, m.id, decoder.decode(m.data), m.redelivered])).toEqual([
        [subject('consent', 'given'), 'evt-1', 'payload-1', false],
        [subject('analytics', 'pageview'), 'evt-2', 'payload-2', false],
        [subject('consent', 'given'), 'evt-3', 'payload-3', false],
      ]);
      const seqs = reader.received.map((m) => m.seq);
      expect(seqs[0]).toBeGreaterThanOrEqual(1);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(3);
    });

    it('calls onPositioned before the first batch; with deliverPolicy new, all published after it resolves is delivered', async () => {
      await bus.publish([message(1)]);
      const order: string[] = [];
      let positioned!: () => void;
      const isPositioned = new Promise<void>((resolve) => (positioned = resolve));
      const reader = collect({
        durable: 'reader',
        deliverPolicy: 'new',
        onPositioned: async () => {
          order.push('positioned');
          positioned();
        },
        onBatch: async (batch) => void order.push(...idsOf(batch)),
      });
      await isPositioned;
      await bus.publish([message(2), message(3)]);
      await receivedId(reader, 'evt-3');
      expect(order).toEqual(['positioned', 'evt-2', 'evt-3']);
    });

    it('a failing onPositioned ends the consumption with its error, as a failing onBatch does', async () => {
      await bus.publish([message(1)]);
      const reader = collect({
        durable: 'reader',
        onPositioned: async () => {
          throw new Error('the log is out of reach');
        },
      });
      await expect(reader.consumption.done).rejects.toThrow('the log is out of reach');
      expect(reader.ids()).toEqual([]);
    });

    it('when the same message id is published twice, it is delivered once', async () => {
      await bus.publish([message(1), message(2)]);
      await bus.publish([message(2), message(3)]);
      await bus.publish([message(3), message(3), message(4)]);
      const reader = collect({ durable: 'reader' });
      await receivedId(reader, 'evt-4');
      // Anything delivered twice would arrive before this later message.
      await bus.publish([message(5)]);
      await receivedId(reader, 'evt-5');

      expect(reader.ids()).toEqual(['evt-1', 'evt-2', 'evt-3', 'evt-4', 'evt-5']);
    });

    it('messages arrive in publish order across many batches', async () => {
      const total = 5_000;
      const chunk = 500;
      const maxBatch = 128;
      let inFlight = 0;
      let overlapped = false;
      // Half is published before the consumer starts (a backlog), half while it runs (live).
      for (let from = 1; from <= total / 2; from += chunk) await bus.publish(range(from, chunk));
      const reader = collect({
        durable: 'reader',
        maxBatch,
        onBatch: async () => {
          inFlight++;
          if (inFlight > 1) overlapped = true;
          await Promise.resolve();
          inFlight--;
        },
      });
      for (let from = total / 2 + 1; from <= total; from += chunk) await bus.publish(range(from, chunk));
      await receivedId(reader, `evt-${total}`, 30_000);
      await bus.publish([message(total + 1)]);
      await receivedId(reader, `evt-${total + 1}`);

      expect(reader.ids()).toEqual(idsOf(range(1, total + 1)));
      const seqs = reader.received.map((m) => m.seq);
      expect(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] ?? 0))).toBe(true);
      expect(reader.batches.every((batch) => batch.length > 0 && batch.length <= maxBatch)).toBe(true);
      expect(overlapped).toBe(false);
    });

    it('when onBatch rejects, done rejects with that error and the batch is delivered again to the next consumption, marked redelivered', async () => {
      await bus.publish(range(1, 10));
      const failure = new Error('projection failed');
      let failedBatch: string[] = [];
      const first = collect({
        durable: 'projector',
        maxBatch: 3,
        onBatch: async (batch) => {
          if (idsOf(batch).includes('evt-5')) {
            failedBatch = idsOf(batch);
            throw failure;
          }
        },
      });
      await expect(first.consumption.done).rejects.toBe(failure);
      expect(failedBatch).toContain('evt-5');
      const acknowledged = first.ids();
      expect([...acknowledged, ...failedBatch]).toEqual(idsOf(range(1, acknowledged.length + failedBatch.length)));

      const second = collect({ durable: 'projector', maxBatch: 3 });
      await receivedId(second, 'evt-10');

      expect(second.ids()).toEqual(idsOf(range(1, 10)).slice(acknowledged.length));
      for (const delivered of second.received.filter((m) => failedBatch.includes(m.id))) {
        expect(delivered.redelivered, delivered.id).toBe(true);
      }
    });

    it('a durable consumer resumes after the last acknowledged message', async () => {
      await bus.publish(range(1, 3));
      const first = collect({ durable: 'projector' });
      await receivedId(first, 'evt-3');
      await first.consumption.stop();
      await expect(first.consumption.done).resolves.toBeUndefined();

      await bus.publish(range(4, 2));
      const second = collect({ durable: 'projector' });
      await receivedId(second, 'evt-5');

      expect(second.ids()).toEqual(['evt-4', 'evt-5']);
      expect(second.received.some((m) => m.redelivered)).toBe(false);
    });

    it('an existing durable keeps its position whatever deliverPolicy it is started with', async () => {
      await bus.publish(range(1, 2));
      const first = collect({ durable: 'projector', deliverPolicy: 'all' });
      await receivedId(first, 'evt-2');
      await first.consumption.stop();

      await bus.publish([message(3)]);
      const second = collect({ durable: 'projector', deliverPolicy: 'new' });
      await bus.publish([message(4)]);
      await receivedId(second, 'evt-4');

      expect(second.ids()).toEqual(['evt-3', 'evt-4']);
    });

    it('deliverPolicy new skips what was published before the consumer existed', async () => {
      await bus.publish(range(1, 3));
      const reader = collect({ durable: 'late-reader', deliverPolicy: 'new' });
      await waitForConsumer(reader);
      await bus.publish(range(4, 2));
      await receivedId(reader, 'evt-5');

      const events = reader.ids().filter((id) => id.startsWith('evt-'));
      expect(events).toEqual(['evt-4', 'evt-5']);
    });

    it('a filter subject receives only matching subjects', async () => {
      await bus.publish([
        message(1, 'consent', 'given'),
        message(2, 'analytics', 'pageview'),
        message(3, 'consent', 'declined'),
        message(4, 'consent', 'given', 'eu'),
        message(5, 'other', 'given'),
        message(6, 'consent', 'end'),
        message(7, 'analytics', 'end'),
        message(8, 'marker', 'given'),
      ]);
      const oneToken = collect({ durable: 'one-token', filterSubject: subject('consent', '*') });
      const rest = collect({ durable: 'rest', filterSubject: subject('consent', '>') });
      const middle = collect({ durable: 'middle', filterSubject: subject('*', 'given') });
      const analytics = collect({ durable: 'analytics', filterSubject: subject('analytics', '>') });
      // Order is guaranteed, so anything wrongly matched would arrive before each filter's last message.
      await receivedId(oneToken, 'evt-6');
      await receivedId(rest, 'evt-6');
      await receivedId(middle, 'evt-8');
      await receivedId(analytics, 'evt-7');

      expect(oneToken.ids()).toEqual(['evt-1', 'evt-3', 'evt-6']);
      expect(rest.ids()).toEqual(['evt-1', 'evt-3', 'evt-4', 'evt-6']);
      expect(middle.ids()).toEqual(['evt-1', 'evt-5', 'evt-8']);
      expect(analytics.ids()).toEqual(['evt-2', 'evt-7']);
    });

    it('stop waits for the batch in progress, which is then acknowledged', async () => {
      await bus.publish(range(1, 3));
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started: string[] | undefined;
      let stopRequested = false;
      let calledAfterStop = false;
      const first = collect({
        durable: 'projector',
        onBatch: async (batch) => {
          if (stopRequested) calledAfterStop = true;
          started ??= idsOf(batch);
          await gate;
        },
      });
      const inProgress = await waitFor(() => started, { message: 'a batch to start' });
      stopRequested = true;
      let stopped = false;
      const stopping = first.consumption.stop().then(() => {
        stopped = true;
      });
      // Asserting that something does not happen has no condition to wait for; a short pause
      // gives a broken stop() the chance to resolve early.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stopped).toBe(false);
      release();
      await stopping;
      await expect(first.consumption.done).resolves.toBeUndefined();
      expect(calledAfterStop).toBe(false);
      expect(first.ids()).toEqual(inProgress);

      await bus.publish([message(4)]);
      const second = collect({ durable: 'projector' });
      await receivedId(second, 'evt-4');
      expect(second.ids()).toEqual(idsOf(range(1, 4)).slice(inProgress.length));
    });

    it('deleteConsumer forgets the position', async () => {
      await bus.publish(range(1, 2));
      const first = collect({ durable: 'projector' });
      await receivedId(first, 'evt-2');
      await first.consumption.stop();
      // Kept, evt-3 would be delivered next (see "keeps its position" above); forgotten, a
      // consumer started with deliverPolicy new begins after it. (The memory bus may already have
      // dropped acknowledged messages, so "all" would not tell the two apart.)
      await bus.publish([message(3)]);
      await bus.deleteConsumer('projector');

      const second = collect({ durable: 'projector', deliverPolicy: 'new' });
      await waitForConsumer(second);
      await bus.publish([message(4)]);
      await receivedId(second, 'evt-4');

      expect(second.ids().filter((id) => id.startsWith('evt-'))).toEqual(['evt-4']);
    });

    it('deleting a durable that does not exist resolves', async () => {
      await expect(bus.deleteConsumer('never-created')).resolves.toBeUndefined();
    });

    it('a waiting consumer receives a message published after it started', async () => {
      const reader = collect({ durable: 'reader' });
      await bus.publish([message(1)]);
      await receivedId(reader, 'evt-1');
      await bus.publish([message(2)]);
      await receivedId(reader, 'evt-2');
      expect(reader.ids()).toEqual(['evt-1', 'evt-2']);
    });

    it('publishing to a subject outside the stream rejects', async () => {
      const outside = { ...message(1), subject: `outside-${config.subjectPrefix}.consent` };
      await expect(bus.publish([outside])).rejects.toThrow();
    });

    it('a durable keeps its filter subject: consuming it with another filter fails', async () => {
      await bus.publish([message(1, 'consent', 'given'), message(2, 'analytics', 'pageview')]);
      const first = collect({ durable: 'projector', filterSubject: subject('consent', '>') });
      await receivedId(first, 'evt-1');
      await first.consumption.stop();

      const second = collect({ durable: 'projector', filterSubject: subject('analytics', '>') });
      await expect(second.consumption.done).rejects.toThrow(/filter/);
    });

    it('a filter subject outside the stream makes done reject', async () => {
      const outside = collect({ durable: 'outside', filterSubject: `outside-${config.subjectPrefix}.>` });
      await expect(outside.consumption.done).rejects.toThrow();
    });

    it('close stops running consumptions', async () => {
      const reader = collect({ durable: 'reader' });
      await bus.publish([message(1)]);
      await receivedId(reader, 'evt-1');
      await bus.close();
      await expect(reader.consumption.done).resolves.toBeUndefined();
      await expect(bus.publish([message(2)])).rejects.toThrow();
    });
  });
}
