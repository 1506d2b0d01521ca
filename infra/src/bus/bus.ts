// The bus contract: what the relay publishes to and what projectors consume from. Two adapters
// implement it — NATS JetStream (production) and in-memory (the embedded default) — and one
// contract suite (bus.contract.ts) runs against both, so code above this line cannot tell them apart.

/** A message to publish. `id` is the deduplication key (the event id). */
export interface OutgoingMessage {
  readonly subject: string;
  readonly id: string;
  readonly data: Uint8Array;
  /**
   * `data` already decoded, when the publisher has it. The in-memory bus freezes it (deeply, in
   * place) and hands this very value to every consumer, so consumers in the same process do not
   * decode the same bytes once each; a bus between processes (NATS) sends only `data`. With a
   * value, `data` may be a getter that encodes it: the in-memory bus reads it only when a consumer
   * does. A message published with a value is handed over: the publisher changes neither.
   */
  readonly value?: unknown;
}

/** A message delivered to a consumer. `seq` is the stream sequence (1-based, increasing). */
export interface DeliveredMessage {
  readonly subject: string;
  readonly id: string;
  /** Read only: the in-memory bus hands every consumer the same bytes. */
  readonly data: Uint8Array;
  /** The publisher's decoded `data`, deeply frozen, when the bus delivers within one process. */
  readonly value?: unknown;
  readonly seq: number;
  /** True when this message was delivered before and not acknowledged. */
  readonly redelivered: boolean;
}

export interface ConsumeOptions {
  /** Durable consumer name; consumption resumes where the last acknowledged message left off. */
  readonly durable: string;
  /** Subject filter with NATS wildcards (`*`, `>`); defaults to every subject of the stream. */
  readonly filterSubject?: string;
  /**
   * Where a consumer that does not exist yet starts: `all` from the first retained message, `new`
   * from messages published after it was created. An existing durable keeps its position.
   */
  readonly deliverPolicy?: 'all' | 'new';
  /** Most messages handed to one `onBatch` call. */
  readonly maxBatch?: number;
  /**
   * Handles one batch, in stream order. When the returned promise resolves, every message of the
   * batch is acknowledged. When it rejects, nothing of the batch is acknowledged, the consumer stops
   * and `Consumption.done` rejects with that error; the unacknowledged messages are delivered again
   * to the next consumer of the same durable.
   */
  readonly onBatch: (batch: readonly DeliveredMessage[]) => Promise<void>;
  /**
   * Called, and awaited, each time the durable has been (re)positioned — found or created when the
   * consumption starts, and again after a rewind — and before anything is fetched from it. What the
   * durable starts from is then fixed: a consumer that keeps its own checkpoint in a log the bus
   * carries (the projectors) reads that log up to now here, and so misses nothing a durable created
   * late (`deliverPolicy: 'new'`) or repositioned too far never delivers. A rejection ends the
   * consumption as a failed `onBatch` does.
   */
  readonly onPositioned?: () => Promise<void>;
}

export interface Consumption {
  /** Stops fetching; waits for an `onBatch` call in progress to finish (and be acknowledged). */
  stop(): Promise<void>;
  /** Settles when consumption ends: resolves after `stop()`, rejects when `onBatch` failed. */
  readonly done: Promise<void>;
}

export interface Bus {
  readonly kind: 'nats' | 'memory';
  /**
   * Publishes messages in the given order and resolves once the bus has acknowledged all of them
   * (for JetStream: stored). A message whose id was already published within the deduplication
   * window is acknowledged without being stored twice. Rejects if any message was not acknowledged;
   * the caller then publishes the batch again (deduplication makes that safe).
   */
  publish(messages: readonly OutgoingMessage[]): Promise<void>;
  /** Starts a durable consumer. Only one consumption per durable name should run at a time. */
  consume(options: ConsumeOptions): Consumption;
  /** Removes a durable consumer and its position (used by tests and by replay tooling). */
  deleteConsumer(durable: string): Promise<void>;
  close(): Promise<void>;
}

export interface BusConfig {
  /** JetStream stream name (also names the in-memory log). */
  readonly stream: string;
  /** Every subject published is `${subjectPrefix}.…`; the stream captures `${subjectPrefix}.>`. */
  readonly subjectPrefix: string;
}
