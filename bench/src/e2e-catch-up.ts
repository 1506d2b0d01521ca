// bench:e2e's view of the product's readers: where the relay, each async projection and the sealer
// have got to (checkpoints, the latest seal) against the log, read from the product's database.
//
// Polling must not slow down the catch-up it times on a 2-core machine, so counting what is behind
// (a scan of the run's events) happens once at the end of the load and once at the end; in between
// only the checkpoints table and the latest seal are read, against targets: the newest event each
// reader has to reach, taken when the load ended.
import { sealStreamId } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { asyncProjections, parseCheckpointName } from '@consentry/projections';

/** A place in the log's global order: (transaction id, position). */
export interface LogKey {
  readonly transactionId: number;
  readonly position: number;
}

const start: LogKey = { transactionId: 0, position: 0 };
const isAfter = (a: LogKey, b: LogKey) => a.transactionId > b.transactionId || (a.transactionId === b.transactionId && a.position > b.position);
const furthest = (keys: readonly LogKey[]) => keys.reduce((best, key) => (isAfter(key, best) ? key : best), start);

/** A reader of the log and the events it has to apply (null: every event). */
interface Reader {
  readonly name: string;
  readonly types: readonly string[] | null;
  /** Where it has got to. */
  read(checkpoints: ReadonlyMap<string, LogKey>, latestSeal: LogKey): LogKey;
}

const relayReader: Reader = { name: 'relay', types: null, read: (checkpoints) => checkpoints.get('relay') ?? start };

/**
 * A projection's checkpoint, or the furthest of its partitions' (checkpoints named after it with a
 * suffix): exact as long as one website's events are in play, which is how bench:e2e loads it.
 */
const projectionReaders: Reader[] = asyncProjections.map((projection) => ({
  name: projection.name,
  types: projection.canHandle,
  read: (checkpoints) => furthest([...checkpoints].filter(([key]) => parseCheckpointName(key)?.projection === projection.name).map(([, key]) => key)),
}));

/** The sealer has to cover every event but seals themselves. */
const sealTypes = ['LedgerSealed'];
const sealerReader: Reader = { name: 'sealer', types: null, read: (_checkpoints, latestSeal) => latestSeal };

export const readerNames = [relayReader, ...projectionReaders, sealerReader].map((reader) => reader.name);

async function readPositions(pool: Db): Promise<{ checkpoints: Map<string, LogKey>; latestSeal: LogKey }> {
  const [checkpointRows, sealRows] = await Promise.all([
    pool.query<{ name: string; transaction_id: string; position: number }>('SELECT name, transaction_id::text AS transaction_id, position FROM checkpoints'),
    pool.query<{ last: { transactionId: string; position: number } }>(
      `SELECT data -> 'last' AS last FROM events WHERE stream_id = $1 AND stream_version IS NOT NULL ORDER BY stream_version DESC LIMIT 1`,
      [sealStreamId],
    ),
  ]);
  const checkpoints = new Map(checkpointRows.rows.map((row) => [row.name, { transactionId: Number(row.transaction_id), position: row.position }]));
  const seal = sealRows.rows[0]?.last;
  return { checkpoints, latestSeal: seal ? { transactionId: Number(seal.transactionId), position: seal.position } : start };
}

/** How many events each reader has still to apply, by reader name: one scan of the log after `since`. */
export async function countBehind(pool: Db, since: LogKey): Promise<Map<string, number>> {
  const { checkpoints, latestSeal } = await readPositions(pool);
  const values: unknown[] = [String(since.transactionId), since.position];
  const parameter = (value: unknown) => `$${values.push(value)}`;
  const readers = [relayReader, ...projectionReaders, sealerReader];
  const columns = readers.map((reader, index) => {
    const at = reader.read(checkpoints, latestSeal);
    const after = `(transaction_id, position) > (${parameter(String(at.transactionId))}::xid8, ${parameter(at.position)}::int8)`;
    const types =
      reader === sealerReader ? ` AND type <> ALL(${parameter(sealTypes)}::text[])` : reader.types ? ` AND type = ANY(${parameter(reader.types)}::text[])` : '';
    return `count(*) FILTER (WHERE ${after}${types})::int8 AS r${index}`;
  });
  const { rows } = await pool.query<Record<string, number>>(
    `SELECT ${columns.join(', ')} FROM events WHERE (transaction_id, position) > ($1::xid8, $2::int8)`,
    values,
  );
  return new Map(readers.map((reader, index) => [reader.name, rows[0]![`r${index}`]!]));
}

/** The end of the log now: the newest event (what the next run's events come after). */
export async function readLogHead(pool: Db): Promise<LogKey> {
  const { rows } = await pool.query<{ transaction_id: string; position: number }>(
    'SELECT transaction_id::text AS transaction_id, position FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1',
  );
  return rows[0] ? { transactionId: Number(rows[0].transaction_id), position: rows[0].position } : start;
}

/** The newest event after `since` that each reader has to reach, by reader name (absent: none). */
async function readTargets(pool: Db, since: LogKey): Promise<Map<string, LogKey>> {
  const { rows } = await pool.query<{ type: string; transaction_id: string; position: number }>(
    `SELECT DISTINCT ON (type) type, transaction_id::text AS transaction_id, position
       FROM events WHERE (transaction_id, position) > ($1::xid8, $2::int8)
      ORDER BY type, transaction_id DESC, position DESC`,
    [String(since.transactionId), since.position],
  );
  const lastOfType = new Map(rows.map((row) => [row.type, { transactionId: Number(row.transaction_id), position: row.position }]));
  const targets = new Map<string, LogKey>();
  for (const reader of [relayReader, ...projectionReaders, sealerReader]) {
    const keys = [...lastOfType].filter(([type]) => (reader === sealerReader ? !sealTypes.includes(type) : !reader.types || reader.types.includes(type))).map(([, key]) => key);
    if (keys.length > 0) targets.set(reader.name, furthest(keys));
  }
  return targets;
}

/**
 * Waits until every reader has applied every event after `since` (the sealer too), and says when
 * each got there (ms after the call). Targets are re-read once all are reached, since the product
 * may append events of its own (seals, company matches) meanwhile; then the exact count is checked.
 */
export async function waitUntilCaughtUp(pool: Db, since: LogKey, options: { timeoutMs: number; intervalMs?: number }): Promise<Map<string, number>> {
  const started = performance.now();
  const reachedAt = new Map<string, number>();
  for (;;) {
    const targets = await readTargets(pool, since);
    for (;;) {
      const { checkpoints, latestSeal } = await readPositions(pool);
      const now = performance.now() - started;
      let all = true;
      for (const reader of [relayReader, ...projectionReaders, sealerReader]) {
        const target = targets.get(reader.name);
        if (!target || !isAfter(target, reader.read(checkpoints, latestSeal))) reachedAt.set(reader.name, reachedAt.get(reader.name) ?? now);
        else {
          reachedAt.delete(reader.name);
          all = false;
        }
      }
      if (all) break;
      if (now > options.timeoutMs) {
        const behind = [...targets.keys()].filter((name) => !reachedAt.has(name));
        throw new Error(`not caught up after ${Math.round(now / 1000)} s: ${behind.join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
    }
    const behind = await countBehind(pool, since);
    if ([...behind.values()].every((count) => count === 0)) return reachedAt;
  }
}
