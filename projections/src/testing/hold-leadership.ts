// A process that takes a leadership lock and holds it, for leadership.int.test.ts to run on a host
// that vanishes: prints `leader` once it holds the lock and `lost` when its connection is gone.
// DATABASE_URL, LOCK_NAME and KEEPALIVE (a TcpKeepalive as JSON) say where, what and how.
import type { TcpKeepalive } from '@consentry/infra';
import { acquireLeadership } from '../runtime/leadership';

const connectionString = process.env.DATABASE_URL;
const lockName = process.env.LOCK_NAME;
if (!connectionString || !lockName || !process.env.KEEPALIVE) {
  process.stderr.write('hold-leadership: DATABASE_URL, LOCK_NAME and KEEPALIVE are required\n');
  process.exit(2);
}
const keepalive = JSON.parse(process.env.KEEPALIVE) as TcpKeepalive;
const leadership = await acquireLeadership({ connectionString, lockName, keepalive, signal: new AbortController().signal, retryMs: 100 });
if (!leadership) process.exit(1);
process.stdout.write('leader\n');
await leadership.lost;
process.stdout.write('lost\n');
process.exit(0);
