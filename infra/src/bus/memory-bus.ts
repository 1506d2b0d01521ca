// The in-memory bus: the embedded default when no NATS_URL is set. It keeps JetStream's observable
// semantics (stream sequences, id deduplication within a window, durable consumers that resume
// after their last acknowledged message, wildcard filters, redelivery marked as such) so the same
// contract suite passes against both adapters, and it trims what every durable has acknowledged so
// a long-running embedded process does not grow without bound.
import type {
  Bus,
  BusConfig,
  ConsumeOptions,
  Consumption,
  DeliveredMessage,
  OutgoingMessage,
} from './bus';
import { isFilterWithin, isValidFilter, isValidSubject, subjectMatcher } from './subjects';

export interface MemoryBusOptions {
  /** Like JetStream's duplicate_window. */
  readonly duplicateWindowMs?: number;
  /** Caps the ids remembered for deduplication, whatever the window, so memory stays bounded. */
  readonly maxDuplicateIds?: number;
  /** Like the stream's max_age: older messages are dropped even if a consumer has not seen them. */
  readonly maxAgeMs?: number;
  /** With no durable consumer to say what may go, keep at most this many messages. */
  readonly maxRetainedWithoutConsumers?: number;
  /**
   * How far the slowest running consumer may fall behind: a publish waits, before storing anything,
   * while that many messages are unacknowledged by it. The publisher (the relay) then stops reading
   * the log, where the events wait durably, instead of this process's heap growing for as long as
   * consumers are slower than appends (and its garbage collector marking every held event again).
   */
  readonly maxBacklog?: number;
  readonly defaultMaxBatch?: number;
  /** Injectable clock for tests of the time windows. */
  readonly now?: () => number;
}

export interface MemoryBusStats {
  /** Messages currently held. */
  readonly retained: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly duplicateIds: number;
}

export interface MemoryBus extends Bus {
  readonly kind: 'memory';
  /** Introspection for tests and diagnostics; not part of the bus contract. */
  stats(): MemoryBusStats;
}

/**
 * One message in the log. A message published with its decoded `value` keeps its bytes unmade
 * until a consumer reads `data`: consumers in this process read the value, so for them the
 * publisher's encoding (toBusMessage's JSON) and the copy are never done. The bytes are copied then,
 * from the publisher's message, which the publisher handed over with its (frozen) value.
 */
class StoredMessage {
  #data: Uint8Array | undefined;
  readonly #source: OutgoingMessage | undefined;
  constructor(
    readonly seq: number,
    readonly subject: string,
    readonly id: string,
    message: OutgoingMessage,
    readonly value: unknown,
    readonly storedAt: number,
  ) {
    // Without a value, copied now so a caller reusing its buffer cannot change what was stored.
    if (value === undefined) this.#data = message.data.slice();
    else this.#source = message;
  }
  get data(): Uint8Array {
    return (this.#data ??= this.#source!.data.slice());
  }
}

/** A delivery of a stored message: its bytes are the stored ones, made when first read. */
class Delivery implements DeliveredMessage {
  readonly subject: string;
  readonly id: string;
  readonly value: unknown;
  readonly seq: number;
  constructor(
    readonly stored: StoredMessage,
    readonly redelivered: boolean,
  ) {
    this.subject = stored.subject;
    this.id = stored.id;
    this.value = stored.value;
    this.seq = stored.seq;
  }
  get data(): Uint8Array {
    return this.stored.data;
  }
}

interface DurableState {
  readonly filter: string | undefined;
  readonly matches: (subject: string) => boolean;
  /** Every message at or below this sequence is acknowledged (or does not match the filter). */
  ackFloor: number;
  /** Highest sequence ever handed to `onBatch`; anything at or below it is a redelivery. */
  deliveredUpTo: number;
  active: boolean;
}

const DEFAULTS = {
  duplicateWindowMs: 2 * 60_000,
  maxDuplicateIds: 100_000,
  maxAgeMs: 7 * 24 * 60 * 60_000,
  maxRetainedWithoutConsumers: 100_000,
  maxBacklog: 20_000,
  defaultMaxBatch: 256,
};

export function createMemoryBus(config: BusConfig, options: MemoryBusOptions = {}): MemoryBus {
  const settings = { ...DEFAULTS, ...options };
  const now = options.now ?? Date.now;
  const streamFilter = `${config.subjectPrefix}.>`;
  if (!isValidFilter(streamFilter)) {
    throw new Error(`invalid subject prefix ${JSON.stringify(config.subjectPrefix)}`);
  }

  // The log is an array with a moving head: trimming advances `head` and compacts now and then,
  // so dropping acknowledged messages is O(1) amortised rather than a shift per message.
  let log: StoredMessage[] = [];
  let head = 0;
  let lastSeq = 0;
  // Map iteration order is insertion order, and every id gets the same window, so the oldest
  // entries are always first: expiring them is a walk from the front.
  const duplicateIds = new Map<string, number>();
  const durables = new Map<string, DurableState>();
  const waiters = new Set<() => void>();
  /** Publishes waiting for consumers to acknowledge (maxBacklog). */
  const publishWaiters = new Set<() => void>();
  const running = new Set<Consumption>();
  let closed = false;
  const withinStream = subjectMatcher(streamFilter);

  const firstSeq = (): number => log[head]?.seq ?? lastSeq + 1;
  const messageAt = (seq: number): StoredMessage | undefined => log[head + seq - firstSeq()];

  function expireDuplicateIds(at: number): void {
    for (const [id, expiresAt] of duplicateIds) {
      if (expiresAt > at && duplicateIds.size <= settings.maxDuplicateIds) break;
      duplicateIds.delete(id);
    }
  }

  function trim(): void {
    const at = now();
    let keepFrom = 0;
    if (durables.size === 0) {
      keepFrom = lastSeq - settings.maxRetainedWithoutConsumers + 1;
    } else {
      keepFrom = Math.min(...[...durables.values()].map((durable) => durable.ackFloor)) + 1;
    }
    while (head < log.length) {
      const message = log[head];
      if (message === undefined) break;
      if (message.seq >= keepFrom && at - message.storedAt < settings.maxAgeMs) break;
      head++;
    }
    if (head > 1024 && head * 2 > log.length) {
      log = log.slice(head);
      head = 0;
    }
    // Every acknowledgement and every consumer that stops comes through here.
    if (publishWaiters.size > 0 && backlog() < settings.maxBacklog) wakePublishers();
  }

  /** Messages the slowest running consumer has not acknowledged; a stopped one holds nobody up. */
  function backlog(): number {
    let floor = lastSeq;
    for (const durable of durables.values()) if (durable.active && durable.ackFloor < floor) floor = durable.ackFloor;
    return lastSeq - floor;
  }

  function wakePublishers(): void {
    const toWake = [...publishWaiters];
    publishWaiters.clear();
    for (const wake of toWake) wake();
  }

  function wakeConsumers(): void {
    const toWake = [...waiters];
    waiters.clear();
    for (const wake of toWake) wake();
  }

  async function publish(messages: readonly OutgoingMessage[]): Promise<void> {
    if (closed) throw new Error('bus is closed');
    // Checked before anything is stored, so a rejected batch leaves no partial trace.
    for (const message of messages) {
      if (!withinStream(message.subject) || !isValidSubject(message.subject)) {
        throw new Error(`no stream captures subject ${JSON.stringify(message.subject)}`);
      }
    }
    while (backlog() >= settings.maxBacklog) {
      await new Promise<void>((resolve) => publishWaiters.add(resolve));
      if (closed) throw new Error('bus is closed');
    }
    const at = now();
    expireDuplicateIds(at);
    for (const message of messages) {
      if (duplicateIds.has(message.id)) continue;
      duplicateIds.set(message.id, at + settings.duplicateWindowMs);
      lastSeq++;
      // Every consumer gets this one value: frozen, so none can change it under the others.
      log.push(new StoredMessage(lastSeq, message.subject, message.id, message, deepFreeze(message.value), at));
    }
    expireDuplicateIds(at);
    trim();
    wakeConsumers();
  }

  function openDurable(options: ConsumeOptions): DurableState {
    const filter = options.filterSubject;
    if (filter !== undefined && (!isValidFilter(filter) || !isFilterWithin(filter, streamFilter))) {
      throw new Error(`filter subject ${JSON.stringify(filter)} is not within ${streamFilter}`);
    }
    const existing = durables.get(options.durable);
    if (existing) {
      if (existing.filter !== filter) {
        throw new Error(
          `durable ${options.durable} exists with filter subject ${JSON.stringify(existing.filter ?? null)}; ` +
            'delete it to change the filter',
        );
      }
      return existing;
    }
    const start = options.deliverPolicy === 'new' ? lastSeq : firstSeq() - 1;
    const created: DurableState = { filter, matches: filter === undefined ? () => true : subjectMatcher(filter), ackFloor: start, deliveredUpTo: start, active: false };
    durables.set(options.durable, created);
    return created;
  }

  /** The next messages for a durable, and how far the scan got (everything up to it is accounted for). */
  function takeBatch(
    durable: DurableState,
    maxBatch: number,
  ): { batch: DeliveredMessage[]; scannedTo: number } {
    const batch: DeliveredMessage[] = [];
    let seq = Math.max(durable.ackFloor + 1, firstSeq());
    let scannedTo = seq - 1;
    for (; seq <= lastSeq && batch.length < maxBatch; seq++) {
      const message = messageAt(seq);
      scannedTo = seq;
      if (message === undefined) continue;
      if (!durable.matches(message.subject)) continue;
      // The stored bytes themselves, not a copy per consumer: consumers only read them (bus.ts).
      batch.push(new Delivery(message, message.seq <= durable.deliveredUpTo));
    }
    return { batch, scannedTo };
  }

  function consume(options: ConsumeOptions): Consumption {
    const maxBatch = options.maxBatch ?? settings.defaultMaxBatch;
    let stopping = false;
    let wakeLoop: (() => void) | undefined;

    const loop = async (): Promise<void> => {
      if (closed) throw new Error('bus is closed');
      if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`invalid maxBatch ${maxBatch}`);
      const durable = openDurable(options);
      if (durable.active) throw new Error(`durable ${options.durable} is already being consumed`);
      durable.active = true;
      try {
        // Positioned once: this bus loses no delivery, so it never rewinds.
        await options.onPositioned?.();
        while (!stopping) {
          const { batch, scannedTo } = takeBatch(durable, maxBatch);
          const last = batch.at(-1);
          if (last === undefined) {
            durable.ackFloor = Math.max(durable.ackFloor, scannedTo);
            trim();
            // Woken by the next publish, or by stop().
            const woken = new Promise<void>((resolve) => {
              wakeLoop = resolve;
              waiters.add(resolve);
            });
            await woken;
            if (wakeLoop) waiters.delete(wakeLoop);
            wakeLoop = undefined;
            continue;
          }
          durable.deliveredUpTo = Math.max(durable.deliveredUpTo, last.seq);
          // Nothing of a failed batch is acknowledged: the floor stays, and the error ends the loop.
          await options.onBatch(batch);
          durable.ackFloor = Math.max(durable.ackFloor, scannedTo);
          trim();
          // Let publishers and timers run between batches of a long backlog.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        durable.active = false;
        trim();
      }
    };

    const done = loop();
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    const consumption: Consumption = {
      done,
      async stop() {
        stopping = true;
        wakeLoop?.();
        await settled;
      },
    };
    running.add(consumption);
    void settled.then(() => running.delete(consumption));
    return consumption;
  }

  return {
    kind: 'memory',
    publish,
    consume,
    async deleteConsumer(durable: string) {
      durables.delete(durable);
      trim();
    },
    async close() {
      closed = true;
      wakePublishers();
      await Promise.all([...running].map((consumption) => consumption.stop()));
    },
    stats() {
      return {
        retained: log.length - head,
        firstSeq: firstSeq(),
        lastSeq,
        duplicateIds: duplicateIds.size,
      };
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
