// "A projection advanced" notices, from projectors to every api instance's open dashboards. Plain
// pub/sub, not the event stream: a missed notice only delays a refresh, and nothing replays them.
// In-memory within one process; PostgreSQL LISTEN/NOTIFY between the processes of the embedded
// default; NATS core subjects when NATS_URL is set, so a dashboard connected to any instance hears
// about projectors running in any other.
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { createClient } from '../db/pool';
import { parseNatsServers } from './nats-servers';

export interface ProjectionAdvanced {
  readonly projection: string;
  /** Websites whose data changed in the batch. */
  readonly websiteIds: readonly string[];
}

export type ProjectionListener = (notice: ProjectionAdvanced) => void;

export interface ProjectionNotifier {
  publish(notice: ProjectionAdvanced): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: ProjectionListener): () => void;
  close(): Promise<void>;
}

export function createMemoryNotifier(): ProjectionNotifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (notice) => void emitter.emit('advanced', notice),
    subscribe(listener) {
      emitter.on('advanced', listener);
      return () => emitter.off('advanced', listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}

export async function createNatsNotifier(options: { url: string; subject: string }): Promise<ProjectionNotifier> {
  // The NATS client is loaded only where NATS_URL is set.
  const { connect } = await import('@nats-io/transport-node');
  const connection = await connect({ servers: parseNatsServers(options.url), name: 'consentry-notifier', maxReconnectAttempts: -1 });
  const local = createMemoryNotifier();
  const subscription = connection.subscribe(options.subject, {
    callback: (error, message) => {
      if (error) return;
      try {
        local.publish(message.json<ProjectionAdvanced>());
      } catch {
        // Not a notice of ours: ignore it.
      }
    },
  });
  return {
    publish: (notice) => connection.publish(options.subject, JSON.stringify(notice)),
    subscribe: local.subscribe,
    async close() {
      subscription.unsubscribe();
      await local.close();
      await connection.drain();
    },
  };
}

/** pg_notify's payload must stay under 8000 bytes: a notice names at most this many websites. */
const websitesPerPostgresNotice = 100;

/**
 * Across the processes of one machine's embedded default (HTTP workers beside the process that
 * runs the projectors), where there is no NATS: PostgreSQL's LISTEN/NOTIFY on one channel. The
 * listening connection reconnects after a second when lost; notices sent meanwhile are missed,
 * which only delays a refresh.
 */
export async function createPostgresNotifier(options: { connectionString: string; channel: string }): Promise<ProjectionNotifier> {
  const local = createMemoryNotifier();
  const publisher = createClient(options.connectionString, { applicationName: 'consentry notifier' });
  await publisher.connect();
  let listener: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  // One query at a time on the publishing connection (pg queues them, but warns and will stop).
  let sending: Promise<unknown> = Promise.resolve();

  async function listen(): Promise<void> {
    const client = createClient(options.connectionString, { applicationName: 'consentry notifier listener' });
    const reconnect = () => {
      if (closed || listener !== client) return;
      listener = undefined;
      retry = setTimeout(() => void listen().catch(reconnectLater), 1000);
    };
    listener = client;
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', (message) => {
      if (message.channel !== options.channel || !message.payload) return;
      try {
        local.publish(JSON.parse(message.payload) as ProjectionAdvanced);
      } catch {
        // Not a notice of ours: ignore it.
      }
    });
    await client.connect();
    await client.query(`LISTEN ${pgIdentifier(options.channel)}`);
  }
  function reconnectLater(): void {
    if (!closed) retry = setTimeout(() => void listen().catch(reconnectLater), 1000);
  }
  await listen();

  return {
    publish(notice) {
      for (let i = 0; i < notice.websiteIds.length; i += websitesPerPostgresNotice) {
        const part = { projection: notice.projection, websiteIds: notice.websiteIds.slice(i, i + websitesPerPostgresNotice) };
        sending = sending.then(() => publisher.query('SELECT pg_notify($1, $2)', [options.channel, JSON.stringify(part)])).catch(() => undefined);
      }
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      clearTimeout(retry);
      await local.close();
      await sending;
      await Promise.all([listener?.end().catch(() => undefined), publisher.end().catch(() => undefined)]);
    },
  };
}

function pgIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
