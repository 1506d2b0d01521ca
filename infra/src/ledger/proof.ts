// Inclusion proofs: that one event, as it stands in the log, is a leaf of a signed seal. With the
// seal (its hash recomputed from its fields, its signature checked with the published key) anyone
// can check the proof offline; docs/compliance.md shows how.
import { sealStreamId, type LedgerSealedData } from '@consentry/events';
import type { Queryable } from '../db/pool';
import { inclusionProof } from './merkle';
import { eventDigest, sealedEventColumns, toSealedEvent, unpackDigests, unpackPositions, type SealedEvent, type SealedEventRow } from './sealed-events';

export interface InclusionProof {
  /** RFC 9162 section 2.1.3.2 over SHA-256 leaves and nodes. */
  readonly algorithm: 'rfc9162-sha256';
  /** The sealed digest: SHA-256 of the event's canonical JSON when it was sealed. */
  readonly leafDigest: string;
  readonly leafIndex: number;
  readonly treeSize: number;
  /** Sibling hashes from the leaf up, hex. */
  readonly path: readonly string[];
  readonly seal: LedgerSealedData;
}

export interface ProvenEvent {
  readonly event: SealedEvent;
  /** Null while the event is newer than the last seal (the sealer runs every few seconds). */
  readonly proof: InclusionProof | null;
  /** The event was rewritten by an erasure after sealing: the proof is of the sealed digest, not of the current content. */
  readonly rewrittenSinceSealed: boolean;
}

export async function readSealedEventById(db: Queryable, eventId: string): Promise<SealedEvent | null> {
  const { rows } = await db.query<SealedEventRow>({
    name: 'read-sealed-event-by-id',
    text: `SELECT ${sealedEventColumns} FROM events WHERE event_id = $1`,
    values: [eventId],
  });
  return rows[0] ? toSealedEvent(rows[0]) : null;
}

export async function proveEvent(db: Queryable, eventId: string): Promise<ProvenEvent | null> {
  const event = await readSealedEventById(db, eventId);
  if (!event) return null;
  const { rows: seals } = await db.query<{ data: LedgerSealedData; positions: Buffer; digests: Buffer }>({
    name: 'find-seal-of-event',
    text: `SELECT e.data, l.positions, l.digests
             FROM events e JOIN seal_leaves l ON l.sequence = e.stream_version
            WHERE e.stream_id = $1 AND e.stream_version IS NOT NULL
              AND ((e.data->'last'->>'transactionId')::xid8, (e.data->'last'->>'position')::int8) >= ($2::xid8, $3::int8)
            ORDER BY e.stream_version
            LIMIT 1`,
    values: [sealStreamId, event.transactionId, event.position],
  });
  const seal = seals[0];
  const positions = seal ? unpackPositions(seal.positions) : [];
  const leafIndex = positions.indexOf(event.position);
  if (!seal || leafIndex < 0) return { event, proof: null, rewrittenSinceSealed: false };
  const digests = unpackDigests(seal.digests);
  const leafDigest = digests[leafIndex]!.toString('hex');
  return {
    event,
    proof: {
      algorithm: 'rfc9162-sha256',
      leafDigest,
      leafIndex,
      treeSize: digests.length,
      path: inclusionProof(digests, leafIndex).map((hash) => hash.toString('hex')),
      seal: seal.data,
    },
    rewrittenSinceSealed: eventDigest(event) !== leafDigest,
  };
}
