// "A projection advanced" notices, from projectors to every api instance's open dashboards. Plain
// pub/sub, not the event stream: a missed notice only delays a refresh, and nothing replays them.
// In-memory for the embedded default; NATS core subjects when NATS_URL is set, so a dashboard
// connected to any instance hears about projectors running in any other.
import { EventEmitter } from 'node:events';
import { connect } from '@nats-io/transport-node';
import { parseNatsServers } from './nats-bus';

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
