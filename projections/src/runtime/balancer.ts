// Sharing the partitions among projector processes. Advisory locks alone give every partition to
// whichever process asks first (the first to start would lead them all, the others only wait), so
// each partition has a preferred process: among the projector processes alive now (the processes
// table every process beats into), the one with the highest hash of (its id, the partition's lock
// name) — rendezvous hashing, which every process computes alike and which moves only the
// partitions of a process that came or went. The preferred process asks for the lock every second;
// the others only every few seconds, so they take it when it is nobody's; and a leader that is no
// longer preferred hands the partition back (projector.ts), so a process that starts or comes back
// gets its share within seconds.
import { readProcesses, type Db } from '@consentry/infra';
import { sleep } from './leadership';
import { fnv1a } from './partitions';

export interface PartitionBalancer {
  /** Whether this process is the one that should lead the lock named so. */
  prefers(lockName: string): boolean;
  stop(): Promise<void>;
}

/** The preferred process of `lockName` among `processIds` (rendezvous hashing). */
export function preferredProcess(processIds: readonly string[], lockName: string): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const id of processIds) {
    const value = fnv1a(`${id}\u0000${lockName}`);
    if (value > bestScore || (value === bestScore && best !== undefined && id < best)) {
      best = id;
      bestScore = value;
    }
  }
  return best;
}

export function startPartitionBalancer(options: { readonly pool: Db; readonly processId: string; readonly role?: string; readonly refreshMs?: number }): PartitionBalancer {
  const role = options.role ?? 'projectors';
  const refreshMs = options.refreshMs ?? 3_000;
  const stopping = new AbortController();
  // Until the table answers, this process prefers everything (as with one process).
  let peers: readonly string[] = [options.processId];

  async function refresh(): Promise<void> {
    try {
      const alive = (await readProcesses(options.pool)).filter((row) => row.alive && row.roles.includes(role)).map((row) => row.id);
      peers = alive.includes(options.processId) ? alive : [...alive, options.processId];
    } catch {
      // The database away: keep the last view.
    }
  }
  const running = (async () => {
    while (!stopping.signal.aborted) {
      await refresh();
      await sleep(refreshMs, stopping.signal);
    }
  })();

  return {
    prefers: (lockName) => preferredProcess(peers, lockName) === options.processId,
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
