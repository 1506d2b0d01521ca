// `consentry verify`: recomputes every seal from the log and names what does not match. A sealed
// event may be missing only if a purge recorded removing its position, and may differ from its
// sealed digest only if an erasure recorded exactly its new digest; everything else is reported:
// altered, deleted, moved or inserted events, broken chain links, bad signatures, and seal leaves
// that no longer hash to their signed root.
import type { KeyObject } from 'node:crypto';
import { sealStreamId, type EventsPurgedData, type LedgerSealedData, type OwnerErasedData, type SubjectErasedData } from '@consentry/events';
import type { Queryable } from '../db/pool';
import { merkleRoot } from './merkle';
import { eventDigest, readSealedEvents, unpackDigests, unpackPositions, type LogKey } from './sealed-events';
import { sealHashOf, sealHeaderJson } from './seals';
import { keyIdOf, verifySealSignature } from './signing-key';
import { readSealTimestamps } from './timestamper';
import { loadTrustAnchors, verifyTimestampToken } from './timestamps';
import type { Certificate } from 'pkijs';

export type VerifyFindingKind =
  | 'altered'
  | 'deleted'
  | 'moved'
  | 'inserted'
  | 'missing-seal'
  | 'broken-chain'
  | 'bad-seal-hash'
  | 'bad-signature'
  | 'unknown-key'
  | 'bad-leaves'
  | 'bad-timestamp';

export interface VerifyFinding {
  readonly kind: VerifyFindingKind;
  readonly seal: number;
  /** The seal's range in the global order: after (exclusive) … last (inclusive). */
  readonly range: { readonly after: LogKey | null; readonly last: LogKey } | null;
  readonly position?: number;
  readonly eventId?: string;
  readonly message: string;
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly seals: number;
  /** Sealed events whose digests were recomputed from their rows. */
  readonly eventsChecked: number;
  /** Sealed events that are gone and that a purge recorded removing. */
  readonly purged: number;
  /** Sealed events rewritten by a recorded erasure, matching the digest it recorded. */
  readonly erased: number;
  /** Committed events after the last seal (sealed on the sealer's next round). */
  readonly unsealed: number;
  readonly timestamps: TimestampSummary;
  readonly findings: readonly VerifyFinding[];
}

/** What the RFC 3161 tokens in the log prove (docs/compliance.md, "Time-stamped seals"). */
export interface TimestampSummary {
  readonly tokens: number;
  readonly verified: number;
  /** The newest seal a verified token dates; every seal before it existed by then too (the chain). */
  readonly stampedThrough: { readonly sequence: number; readonly genTime: string; readonly tsa: string } | null;
  /** Seals newer than that one: no authority has dated them yet. */
  readonly sealsNotStamped: number;
}

export interface VerifyOptions {
  /** The trusted public key (the published one); seals signed by another key are reported. */
  readonly publicKey: KeyObject;
  readonly onProgress?: (progress: { readonly seals: number; readonly totalSeals: number; readonly events: number }) => void;
  /** Stop collecting after this many findings (default 100); the first one is the one that matters. */
  readonly maxFindings?: number;
  /** The time-stamping authorities' CA certificates trusted (TSA_CA_FILE); default: the public roots Node ships. */
  readonly tsaTrustAnchors?: readonly Certificate[];
}

interface SealRow {
  sequence: number;
  data: LedgerSealedData;
}

const describeRange = (seal: LedgerSealedData) =>
  `positions ${seal.after ? `after ${seal.after.position} (tx ${seal.after.transactionId})` : 'from the start of the log'} to ${seal.last.position} (tx ${seal.last.transactionId})`;

export async function verifyLedger(db: Queryable, options: VerifyOptions): Promise<VerifyReport> {
  const maxFindings = options.maxFindings ?? 100;
  const trustedKeyId = keyIdOf(options.publicKey);
  const findings: VerifyFinding[] = [];
  const report = (finding: VerifyFinding) => {
    if (findings.length < maxFindings) findings.push(finding);
  };

  // What the compliance jobs say they removed or rewrote.
  const purgedPositions = new Set<number>();
  const erasedDigests = new Map<number, string>();
  const { rows: records } = await db.query<{ type: string; data: EventsPurgedData | SubjectErasedData | OwnerErasedData }>({
    text: `SELECT type, data FROM events WHERE type IN ('EventsPurged', 'SubjectErased', 'OwnerErased') ORDER BY transaction_id, position`,
  });
  for (const record of records) {
    if (record.type === 'EventsPurged') {
      for (const [first, last] of (record.data as EventsPurgedData).positions) {
        for (let position = first; position <= last; position++) purgedPositions.add(position);
      }
    } else {
      // SubjectErased (a visitor) or OwnerErased (a deleted owner): both name each rewritten event.
      for (const rewritten of (record.data as SubjectErasedData | OwnerErasedData).rewritten) erasedDigests.set(rewritten.position, rewritten.digest);
    }
  }

  const { rows: seals } = await db.query<SealRow>({
    text: `SELECT stream_version AS sequence, data FROM events WHERE stream_id = $1 AND stream_version IS NOT NULL ORDER BY stream_version`,
    values: [sealStreamId],
  });
  let eventsChecked = 0;
  let purged = 0;
  let erased = 0;
  let previous: LedgerSealedData | null = null;
  for (const [index, { sequence, data: seal }] of seals.entries()) {
    const range = { after: seal.after, last: seal.last };
    const at = (kind: VerifyFindingKind, message: string, event?: { position: number; eventId?: string }) =>
      report({ kind, seal: sequence, range, ...(event ? { position: event.position, ...(event.eventId ? { eventId: event.eventId } : {}) } : {}), message: `seal ${sequence} (${describeRange(seal)}): ${message}` });

    if (sequence !== index + 1) at('missing-seal', `seal ${index + 1} is missing from the chain`);
    if (seal.sequence !== sequence) at('broken-chain', `the seal says it is number ${seal.sequence}`);
    if (seal.previousSealHash !== (previous?.sealHash ?? null)) at('broken-chain', `it chains to ${seal.previousSealHash ?? 'nothing'}, not to the previous seal's hash ${previous?.sealHash ?? '(none)'}`);
    if (!sameKey(seal.after, previous?.last ?? null)) at('broken-chain', 'its range does not start where the previous seal ended');
    if (sealHashOf(seal) !== seal.sealHash) at('bad-seal-hash', 'its hash does not match its contents (the seal itself was changed)');
    if (seal.keyId !== trustedKeyId) at('unknown-key', `it is signed by key ${seal.keyId}, not by the trusted key ${trustedKeyId}`);
    else if (!verifySealSignature(options.publicKey, seal.sealHash, seal.signature)) at('bad-signature', 'its signature does not verify with the trusted key');
    previous = seal;

    const { rows: leafRows } = await db.query<{ positions: Buffer; digests: Buffer }>({
      name: 'read-seal-leaves',
      text: 'SELECT positions, digests FROM seal_leaves WHERE sequence = $1',
      values: [sequence],
    });
    const leaves = leafRows[0];
    if (!leaves) {
      at('bad-leaves', 'its leaves are missing');
      continue;
    }
    const positions = unpackPositions(leaves.positions);
    const digests = unpackDigests(leaves.digests);
    if (positions.length !== seal.eventCount || merkleRoot(digests).toString('hex') !== seal.merkleRoot) {
      at('bad-leaves', 'its stored leaves do not hash to its signed Merkle root (the leaves table was changed)');
    }

    const events = await readSealedEvents(db, seal.after, seal.last, seal.eventCount + 10_000);
    const byPosition = new Map(events.map((event) => [event.position, event]));
    const sealedPositions = new Set(positions);
    const missing: number[] = [];
    for (const [leaf, position] of positions.entries()) {
      const event = byPosition.get(position);
      const sealedDigest = digests[leaf]!.toString('hex');
      if (!event) {
        if (purgedPositions.has(position)) purged++;
        else missing.push(position);
        continue;
      }
      eventsChecked++;
      const digest = eventDigest(event);
      if (digest === sealedDigest) continue;
      if (erasedDigests.get(position) === digest) {
        erased++;
        continue;
      }
      at('altered', `event at position ${position} (id ${event.eventId}) was altered: its digest is ${digest}, the seal holds ${sealedDigest}`, event);
    }
    if (missing.length > 0) {
      // Gone from the range: deleted, or still in the table but moved out of its place in the order.
      const { rows: moved } = await db.query<{ position: number; event_id: string }>({
        text: 'SELECT position, event_id FROM events WHERE position = ANY($1::int8[])',
        values: [missing],
      });
      const movedIds = new Map(moved.map((row) => [row.position, row.event_id]));
      for (const position of missing) {
        const eventId = movedIds.get(position);
        if (eventId) at('moved', `event at position ${position} (id ${eventId}) was moved out of its sealed place in the order`, { position, eventId });
        else at('deleted', `event at position ${position} was deleted, and no purge recorded removing it`, { position });
      }
    }
    const sealedOrder = positions.filter((position) => byPosition.has(position));
    for (const event of events) {
      if (!sealedPositions.has(event.position)) {
        at('inserted', `event at position ${event.position} (id ${event.eventId}) is in the range but was not sealed`, event);
      }
    }
    const presentOrder = events.filter((event) => sealedPositions.has(event.position)).map((event) => event.position);
    const firstOutOfOrder = presentOrder.findIndex((position, i) => position !== sealedOrder[i]);
    if (firstOutOfOrder >= 0) {
      const position = presentOrder[firstOutOfOrder]!;
      at('moved', `event at position ${position} (id ${byPosition.get(position)!.eventId}) is out of its sealed order`, { position, eventId: byPosition.get(position)!.eventId });
    }
    options.onProgress?.({ seals: index + 1, totalSeals: seals.length, events: eventsChecked + purged });
  }

  const timestamps = await verifyTimestamps(
    db,
    new Map(seals.map(({ sequence, data }) => [sequence, data])),
    options.tsaTrustAnchors ?? (await loadTrustAnchors()),
    (finding) => report(finding),
  );

  const last = previous?.last ?? null;
  const { rows: tail } = await db.query<{ count: number }>({
    text: 'SELECT count(*)::int8 AS count FROM events WHERE (transaction_id, position) > ($1::xid8, $2::int8)',
    values: [last?.transactionId ?? '0', last?.position ?? 0],
  });
  return { ok: findings.length === 0, seals: seals.length, eventsChecked, purged, erased, unsealed: tail[0]?.count ?? 0, timestamps, findings };
}

/** Checks every token against the seal it names; a token that does not prove its seal is a finding. */
async function verifyTimestamps(
  db: Queryable,
  seals: ReadonlyMap<number, LedgerSealedData>,
  trusted: readonly Certificate[],
  report: (finding: VerifyFinding) => void,
): Promise<TimestampSummary> {
  const tokens = await readSealTimestamps(db);
  let verified = 0;
  let stampedThrough: TimestampSummary['stampedThrough'] = null;
  for (const token of tokens) {
    const seal = seals.get(token.sequence);
    const range = seal ? { after: seal.after, last: seal.last } : null;
    const finding = (message: string) => report({ kind: 'bad-timestamp', seal: token.sequence, range, message: `seal ${token.sequence}, token ${token.serialNumber} from ${token.tsa}: ${message}` });
    if (!seal) {
      finding('the seal it dates is not in the chain');
      continue;
    }
    if (seal.sealHash !== token.sealHash) {
      finding(`it names seal hash ${token.sealHash}, but the seal's hash is ${seal.sealHash}`);
      continue;
    }
    const check = await verifyTimestampToken(token.token, Buffer.from(sealHeaderJson(seal)), trusted);
    if (!check.ok) {
      finding(`${check.problem}: ${check.message}`);
      continue;
    }
    verified++;
    if (!stampedThrough || token.sequence > stampedThrough.sequence) stampedThrough = { sequence: token.sequence, genTime: check.genTime!, tsa: check.tsa ?? token.tsa };
  }
  return { tokens: tokens.length, verified, stampedThrough, sealsNotStamped: seals.size - (stampedThrough?.sequence ?? 0) };
}

function sameKey(a: LogKey | null, b: LogKey | null): boolean {
  if (a === null || b === null) return a === b;
  return a.transactionId === b.transactionId && a.position === b.position;
}
