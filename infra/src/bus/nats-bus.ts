// The production bus: NATS JetStream. The relay publishes the log to one stream (message id = event id)
// and each projector consumes it through a durable pull consumer; no newer message ever overtakes an
// older one. How, and how it rides out a failover: docs/architecture.md, "The NATS adapter: order and failover".
import {
  connect,
  nanos,
  type NodeConnectionOptions,
} from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstreamManager,
  type Consumer,
  type ConsumerConfig,
  type ConsumerInfo,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type {
  Bus,
  BusConfig,
  ConsumeOptions,
  Consumption,
  DeliveredMessage,
  OutgoingMessage,
} from './bus';
import { isValidFilter, isValidSubject, matchesSubject } from './subjects';
import { parseNatsServers } from './nats-servers';

/** The subset of a pino logger the bus writes to. */
export interface BusLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface NatsBusOptions extends BusConfig {
  /**
   * One server URL or several (a cluster), as a list or comma-separated like NATS_URL; the client
   * connects to any of them, learns the rest of the cluster from the server and reconnects forever.
   */
  readonly url: string | readonly string[];
  /** Connection name shown by the server's monitoring, e.g. `consentry-relay`. */
  readonly name?: string;
  readonly logger?: BusLogger;
  /** Pause between reconnect attempts; short in tests so an outage heals quickly. */
  readonly reconnectTimeWaitMs?: number;
  /**
   * How long `publish` keeps resending what was not acknowledged before it rejects. Long enough to
   * ride out the election of a new stream leader when a cluster node dies; a NATS outage (no
   * quorum, no server) surfaces here.
   */
  readonly publishTimeoutMs?: number;
  /**
   * How long one request waits for its answer: a PubAck, an ack's confirmation, a JetStream API
   * call. At most `publishTimeoutMs` by default.
   */
  readonly requestTimeoutMs?: number;
  /** Client pings; a server that stops answering (a dead machine sends no FIN) is left after two. */
  readonly pingIntervalMs?: number;
  /** How long JetStream waits for an ack before redelivering. */
  readonly ackWaitMs?: number;
  /** Lifetime of one pull request; nats.js refuses less than 1 s. */
  readonly fetchExpiresMs?: number;
  /** Pause before retrying after a failed fetch or consumer lookup. */
  readonly retryDelayMs?: number;
  readonly defaultMaxBatch?: number;
  /** Stream replicas: 1 on a single server, 3 on a production cluster. */
  readonly replicas?: number;
  /** Stream retention; messages older than this are dropped. */
  readonly maxAgeMs?: number;
  /** JetStream's deduplication window for message ids. */
  readonly duplicateWindowMs?: number;
}

const DEFAULTS = {
  reconnectTimeWaitMs: 2_000,
  publishTimeoutMs: 15_000,
  pingIntervalMs: 10_000,
  ackWaitMs: 30_000,
  fetchExpiresMs: 1_000,
  retryDelayMs: 500,
  defaultMaxBatch: 256,
  replicas: 1,
  maxAgeMs: 7 * 24 * 60 * 60_000,
  duplicateWindowMs: 2 * 60_000,
};

const MSG_ID_HEADER = 'Nats-Msg-Id';
/** Kept in the consumer's description across rewinds, so redelivered messages stay marked. */
const REDELIVERED_MARKER = 'consentry:redelivered-up-to=';
const STREAM_NAME_IN_USE = 10058;
/** Server-side (500) errors that no retry fixes: "replicas > 1 not supported in non-clustered mode". */
const PERMANENT_API_ERRORS = new Set([10074]);

/** Cannot succeed however often it is tried: a durable's filter changed, a stream set up otherwise. */
class BusFailure extends Error {}

/**
 * Worth another try: no answer in time, no responders (no stream leader while one is elected), the
 * connection lost, or a server-side JetStream error (cluster temporarily unavailable, not leader).
 * A 4xx JetStream error is about the request itself and would fail again.
 */
function isTransient(error: unknown): boolean {
  if (error instanceof BusFailure) return false;
  if (!(error instanceof JetStreamApiError)) return true;
  return error.status >= 500 && !PERMANENT_API_ERRORS.has(error.code);
}

export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const settings = { ...DEFAULTS, ...options };
  const requestTimeoutMs = options.requestTimeoutMs ?? Math.min(5_000, settings.publishTimeoutMs);
  const { stream, subjectPrefix, logger } = options;
  const streamFilter = `${subjectPrefix}.>`;
  if (!isValidFilter(streamFilter)) throw new Error(`invalid subject prefix ${JSON.stringify(subjectPrefix)}`);
  const connectionOptions: NodeConnectionOptions = {
    servers: parseNatsServers(options.url),
    maxReconnectAttempts: -1,
    reconnectTimeWait: settings.reconnectTimeWaitMs,
    pingInterval: settings.pingIntervalMs,
    maxPingOut: 2,
    ...(options.name === undefined ? {} : { name: options.name }),
  };
  const nc = await connect(connectionOptions);
  let jsm: JetStreamManager;
  try {
    jsm = await jetstreamManager(nc, { timeout: requestTimeoutMs });
    await ensureStream(jsm, settings);
  } catch (error) {
    await nc.close();
    throw error;
  }
  const js: JetStreamClient = jsm.jetstream();

  // Every disconnect may have lost deliveries in flight; consumptions compare this counter before
  // and after each fetch to know when to check their consumer.
  let disconnects = 0;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        disconnects++;
        logger?.warn({ stream, server: status.server }, 'bus disconnected from NATS');
      } else if (status.type === 'reconnect') {
        logger?.info({ stream, server: status.server }, 'bus reconnected to NATS');
      } else if (status.type === 'error') {
        logger?.error({ stream, err: status.error }, 'NATS connection error');
      }
    }
  })().catch(() => undefined);

  let closed = false;
  const running = new Set<Consumption>();

  async function publish(messages: readonly OutgoingMessage[]): Promise<void> {
    if (closed) throw new Error('bus is closed');
    // Refused here rather than by the server: to JetStream a subject no stream captures looks like
    // a stream without a leader (no responders), which is worth retrying.
    for (const message of messages) {
      if (!isValidSubject(message.subject) || !matchesSubject(streamFilter, message.subject)) {
        throw new Error(`no stream captures subject ${JSON.stringify(message.subject)}`);
      }
    }
    const deadline = Date.now() + settings.publishTimeoutMs;
    /** Stream sequence of each message once acknowledged; duplicates have none of their own. */
    const stored: (number | 'duplicate' | undefined)[] = messages.map(() => undefined);
    let pending = messages.map((_, index) => index);
    for (let attempt = 1; ; attempt++) {
      // All requests go out before any ack is awaited: one connection keeps them in order, and a
      // batch costs one round trip instead of one per message. What a dying leader stored is a
      // prefix of what it received, so resending the rest in order keeps the stream in order.
      const timeout = Math.max(1, Math.min(requestTimeoutMs, deadline - Date.now()));
      const results = await Promise.allSettled(
        pending.map((index) => {
          const message = messages[index]!;
          return js.publish(message.subject, message.data, { msgID: message.id, timeout });
        }),
      );
      const failed: number[] = [];
      let firstError: unknown;
      let permanent = false;
      results.forEach((result, k) => {
        const index = pending[k]!;
        if (result.status === 'fulfilled') {
          stored[index] = result.value.duplicate ? 'duplicate' : result.value.seq;
        } else {
          failed.push(index);
          firstError ??= result.reason;
          permanent ||= !isTransient(result.reason);
        }
      });
      if (failed.length === 0) break;
      const giveUp = closed || nc.isClosed() || permanent || Date.now() + settings.retryDelayMs >= deadline;
      if (giveUp) {
        throw new Error(
          `${failed.length} of ${messages.length} messages were not acknowledged by JetStream after ` +
            `${attempt} attempt(s) (first: ${messages[failed[0]!]?.subject})`,
          { cause: firstError },
        );
      }
      logger?.warn(
        { stream, attempt, unacknowledged: failed.length, err: firstError },
        'messages not acknowledged by JetStream; publishing them again',
      );
      await new Promise((resolve) => setTimeout(resolve, settings.retryDelayMs));
      pending = failed;
    }
    reportOutOfOrder(messages, stored);
  }

  /** Guards the ordering argument above: projectors skip anything at or before their checkpoint. */
  function reportOutOfOrder(messages: readonly OutgoingMessage[], stored: readonly (number | 'duplicate' | undefined)[]): void {
    let highest = 0;
    for (const [index, seq] of stored.entries()) {
      if (typeof seq !== 'number') continue;
      if (seq < highest) {
        logger?.error(
          { stream, id: messages[index]?.id, seq, after: highest },
          'a retried message was stored after a later one of its batch',
        );
      }
      highest = Math.max(highest, seq);
    }
  }

  function consume(consumeOptions: ConsumeOptions): Consumption {
    const consumption = startConsumption(consumeOptions);
    running.add(consumption);
    void consumption.done.then(
      () => running.delete(consumption),
      () => running.delete(consumption),
    );
    return consumption;
  }

  function startConsumption(consumeOptions: ConsumeOptions): Consumption {
    const { durable, onBatch } = consumeOptions;
    const filter = consumeOptions.filterSubject;
    const maxBatch = consumeOptions.maxBatch ?? settings.defaultMaxBatch;
    let stopping = false;
    let wake: (() => void) | undefined;

    let consumer: Consumer | undefined;
    /** Consumer delivery sequence of the last message received; a jump means a lost delivery. */
    let lastDeliverySeq = 0;
    /**
     * Anything at or below this stream sequence was handed out before (by this consumption, or by
     * the durable before a rewind). A consumer leader elected after a node died may not know of
     * every delivery the old one made, so the server's redelivered flag alone can miss some.
     */
    let redeliveredUpTo = 0;
    /** Set while a rewind has deleted the consumer but not yet recreated it. */
    let rewindConfig: Partial<ConsumerConfig> | undefined;

    const signal = (): void => {
      const resolve = wake;
      wake = undefined;
      resolve?.();
    };
    const waitForSignal = (timeoutMs?: number): Promise<void> =>
      new Promise<void>((resolve) => {
        const timer = timeoutMs === undefined ? undefined : setTimeout(signal, timeoutMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });

    const baseConfig = (filterSubject: string | undefined): Partial<ConsumerConfig> => ({
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(settings.ackWaitMs),
      max_deliver: -1,
      ...(filterSubject === undefined ? {} : { filter_subject: filterSubject }),
    });

    async function initialConfig(): Promise<Partial<ConsumerConfig>> {
      if (consumeOptions.deliverPolicy !== 'new') {
        return { ...baseConfig(filter), deliver_policy: DeliverPolicy.All };
      }
      // An explicit start sequence rather than DeliverPolicy.New: a rewind needs to know where the
      // consumer began when nothing has been acknowledged yet, and the server reports no floor then.
      const info = await jsm.streams.info(stream);
      return {
        ...baseConfig(filter),
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: info.state.last_seq + 1,
      };
    }

    async function findConsumer(): Promise<ConsumerInfo | null> {
      try {
        return await jsm.consumers.info(stream, durable);
      } catch (error) {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) {
          return null;
        }
        throw error;
      }
    }

    async function rewind(info: ConsumerInfo): Promise<ConsumerInfo> {
      const config = info.config;
      const floor = info.ack_floor.stream_seq;
      const start =
        floor > 0
          ? floor + 1
          : config.deliver_policy === DeliverPolicy.StartSequence
            ? (config.opt_start_seq ?? 1)
            : 1;
      const upTo = Math.max(redeliveredUpToOf(config.description), info.delivered.stream_seq, redeliveredUpTo);
      rewindConfig = {
        ...baseConfig(normaliseFilter(config.filter_subject)),
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: start,
        description: `${REDELIVERED_MARKER}${upTo}`,
      };
      logger?.warn(
        { stream, durable, start, pending: info.num_ack_pending },
        'rewinding consumer to its ack floor so unacknowledged messages are not overtaken',
      );
      await jsm.consumers.delete(stream, durable);
      return await jsm.consumers.add(stream, rewindConfig);
    }

    /** Finds or creates the durable, rewinding it when deliveries may have been lost. */
    async function prepare(): Promise<void> {
      let info = await findConsumer();
      if (info === null) {
        info = await jsm.consumers.add(stream, rewindConfig ?? (await initialConfig()));
      } else {
        const existing = normaliseFilter(info.config.filter_subject);
        if (rewindConfig === undefined && existing !== filter) {
          throw new BusFailure(
            `durable ${durable} exists with filter subject ${JSON.stringify(existing ?? null)}; ` +
              'delete it to change the filter',
          );
        }
        if (info.num_ack_pending > 0) info = await rewind(info);
      }
      rewindConfig = undefined;
      consumer = js.consumers.getConsumerFromInfo(info);
      lastDeliverySeq = info.delivered.consumer_seq;
      redeliveredUpTo = Math.max(redeliveredUpTo, redeliveredUpToOf(info.config.description));
    }

    function toDelivered(message: JsMsg): DeliveredMessage {
      return {
        subject: message.subject,
        id: message.headers?.get(MSG_ID_HEADER) ?? '',
        data: message.data,
        seq: message.seq,
        redelivered: message.redelivered || message.seq <= redeliveredUpTo,
      };
    }

    /** Acks a handled batch; false when the server's confirmation did not come back. */
    async function acknowledge(batch: readonly JsMsg[]): Promise<boolean> {
      const last = batch.at(-1);
      if (last === undefined) return true;
      for (const message of batch) if (message !== last) message.ack();
      // The server handles one consumer's acks in the order they arrive, so confirming the last
      // one confirms the batch, and it is on the server before the next pull request is sent.
      try {
        await last.ackAck({ timeout: requestTimeoutMs });
        return true;
      } catch (error) {
        logger?.warn({ stream, durable, err: error }, 'acknowledgement not confirmed');
        return false;
      }
    }

    async function returnUnhandled(messages: readonly JsMsg[]): Promise<void> {
      if (messages.length === 0) return;
      // Redelivered at once instead of after ack_wait; the next consumption rewinds anyway.
      for (const message of messages) message.nak();
      await withTimeout(nc.flush(), requestTimeoutMs).catch(() => undefined);
    }

    /**
     * One pull request, handed to onBatch as it arrives. `check`: deliveries may have been lost, look
     * at the consumer before the next fetch; `failed`: the same, after a pause, so an unavailable
     * JetStream is not hammered.
     */
    async function runFetch(active: Consumer): Promise<'ok' | 'check' | 'failed'> {
      const disconnectsBefore = disconnects;
      let messages: ConsumerMessages;
      try {
        messages = await active.fetch({ max_messages: maxBatch, expires: settings.fetchExpiresMs });
      } catch (error) {
        logger?.warn({ stream, durable, err: error }, 'fetch failed');
        return 'failed';
      }
      const queue: JsMsg[] = [];
      let ended = false;
      let fetchError: unknown;
      const pump = (async () => {
        try {
          for await (const message of messages) {
            queue.push(message);
            signal();
          }
        } catch (error) {
          fetchError = error;
        } finally {
          ended = true;
          signal();
        }
      })();

      let needsCheck = false;
      const unhandled: JsMsg[] = [];
      try {
        while (!stopping) {
          if (queue.length === 0) {
            if (ended) break;
            await waitForSignal();
            continue;
          }
          // Messages of a burst are parsed from one socket read; let them all land so a batch fills.
          await new Promise((resolve) => setImmediate(resolve));
          if (stopping) break;
          const taken = queue.splice(0, maxBatch);
          let inOrder = 0;
          for (const message of taken) {
            if (message.info.deliverySequence !== lastDeliverySeq + 1) break;
            lastDeliverySeq++;
            inOrder++;
          }
          const batch = taken.slice(0, inOrder);
          if (inOrder < taken.length) {
            logger?.warn(
              { stream, durable, expected: lastDeliverySeq + 1, got: taken[inOrder]?.info.deliverySequence },
              'delivery sequence gap: a delivery was lost',
            );
            unhandled.push(...taken.slice(inOrder));
            needsCheck = true;
          }
          if (batch.length > 0) {
            const delivered = batch.map(toDelivered);
            redeliveredUpTo = Math.max(redeliveredUpTo, batch.at(-1)!.seq);
            try {
              await onBatch(delivered);
            } catch (error) {
              await messages.close();
              await pump;
              await returnUnhandled([...batch, ...unhandled, ...queue.splice(0)]);
              throw error;
            }
            if (!(await acknowledge(batch))) needsCheck = true;
          }
          if (needsCheck) break;
        }
      } finally {
        await messages.close();
        await pump;
      }
      await returnUnhandled([...unhandled, ...queue.splice(0)]);
      if (fetchError !== undefined) {
        logger?.warn({ stream, durable, err: fetchError }, 'fetch failed');
        return 'failed';
      }
      return needsCheck || disconnects !== disconnectsBefore ? 'check' : 'ok';
    }

    const isFatal = (error: unknown): boolean => !isTransient(error) || nc.isClosed();

    const loop = async (): Promise<void> => {
      if (closed) throw new Error('bus is closed');
      if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`invalid maxBatch ${maxBatch}`);
      let needsCheck = true;
      while (!stopping) {
        if (needsCheck || consumer === undefined) {
          try {
            await prepare();
            needsCheck = false;
          } catch (error) {
            if (isFatal(error)) throw error;
            logger?.warn({ stream, durable, err: error }, 'consumer lookup failed; retrying');
            if (!stopping) await waitForSignal(settings.retryDelayMs);
            continue;
          }
          // Its start is fixed now; what it will not deliver is for the consumer to read elsewhere.
          await consumeOptions.onPositioned?.();
        }
        if (consumer === undefined) continue;
        const outcome = await runFetch(consumer);
        needsCheck = outcome !== 'ok';
        if (outcome === 'failed' && !stopping) await waitForSignal(settings.retryDelayMs);
      }
    };

    const done = loop();
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    return {
      done,
      async stop() {
        stopping = true;
        signal();
        await settled;
      },
    };
  }

  return {
    kind: 'nats',
    publish,
    consume,
    async deleteConsumer(durable: string) {
      try {
        await jsm.consumers.delete(stream, durable);
      } catch (error) {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return;
        throw error;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...running].map((consumption) => consumption.stop()));
      if (nc.isClosed()) return;
      // Drain delivers what is in flight; during an outage it could wait forever, so bound it.
      try {
        await withTimeout(nc.drain(), requestTimeoutMs);
      } catch {
        await nc.close();
      }
    },
  };

  /** Creates the stream, waiting out a cluster that is still electing its leaders. */
  async function ensureStream(manager: JetStreamManager, config: typeof settings): Promise<void> {
    const deadline = Date.now() + config.publishTimeoutMs;
    for (;;) {
      try {
        await createOrCheckStream(manager, config);
        return;
      } catch (error) {
        if (!isTransient(error) || Date.now() + config.retryDelayMs >= deadline) throw error;
        logger?.warn({ stream, err: error }, 'JetStream not ready to create the stream; retrying');
        await new Promise((resolve) => setTimeout(resolve, config.retryDelayMs));
      }
    }
  }

  async function createOrCheckStream(manager: JetStreamManager, config: typeof settings): Promise<void> {
    const subjects = streamFilter;
    try {
      await manager.streams.add({
        name: stream,
        subjects: [subjects],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        max_age: nanos(config.maxAgeMs),
        duplicate_window: nanos(config.duplicateWindowMs),
        num_replicas: config.replicas,
      });
    } catch (error) {
      // A stream an operator has tuned (retention, replicas) is kept as it is, as long as it
      // still captures our subjects.
      if (!(error instanceof JetStreamApiError) || error.code !== STREAM_NAME_IN_USE) throw error;
      const info = await manager.streams.info(stream);
      if (!info.config.subjects?.includes(subjects)) {
        throw new BusFailure(`stream ${stream} exists but does not capture ${subjects}`, { cause: error });
      }
      if (info.config.num_replicas !== config.replicas) {
        logger?.warn(
          { stream, replicas: info.config.num_replicas, configured: config.replicas },
          'the stream exists with another number of replicas; keeping it as it is',
        );
      }
    }
  }
}

function normaliseFilter(filter: string | undefined): string | undefined {
  return filter === undefined || filter === '' ? undefined : filter;
}

function redeliveredUpToOf(description: string | undefined): number {
  if (description?.startsWith(REDELIVERED_MARKER) !== true) return 0;
  const value = Number(description.slice(REDELIVERED_MARKER.length));
  return Number.isSafeInteger(value) ? value : 0;
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
