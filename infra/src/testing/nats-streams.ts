// Isolated JetStream streams for tests and benchmarks on the machine's shared NATS server.
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** A stream name and subject prefix no other test uses. */
export function uniqueBusConfig(label: string) {
  const suffix = randomBytes(4).toString('hex');
  return { stream: `TEST_${label.toUpperCase()}_${suffix}`, subjectPrefix: `test.${label}.${suffix}` };
}

/** Deletes a test's stream; `url` may list several servers (a cluster), comma-separated. */
export async function deleteNatsStream(stream: string, url = natsUrl): Promise<void> {
  const connection = await connect({ servers: url.split(',') });
  try {
    const manager = await jetstreamManager(connection);
    await manager.streams.delete(stream).catch(() => undefined);
  } finally {
    await connection.close();
  }
}
