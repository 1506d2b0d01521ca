// Witnessing an installation's seals (docs/compliance.md, "Witnessed seals"): the public feed of the
// chain (`GET /.well-known/consentry/seals`), and what a witness elsewhere checks each time it
// follows it — that every new seal is well formed, signed by the published key and extends the last
// head it saw. Someone who controls the server and its key can rewrite the log and seal it all
// again so that `consentry verify` passes on the server; a witness that saw an earlier head cannot
// be made to accept the new history.
import { createPublicKey } from 'node:crypto';
import { sealStreamId, sealTimestampStreamId, type LedgerSealedData, type SealTimestampedData } from '@consentry/events';
import type { Queryable } from '../db/pool';
import { sealHashOf } from './seals';
import { keyIdOf, verifySealSignature } from './signing-key';

export interface FeedSeal extends LedgerSealedData {
  /** The RFC 3161 tokens that date this seal (and, through the chain, every seal before it). */
  readonly timestamps: readonly SealTimestampedData[];
}

export interface SealFeedPage {
  readonly seals: readonly FeedSeal[];
  /** The newest seal now, whatever the page holds. */
  readonly head: { readonly sequence: number; readonly sealHash: string } | null;
}

/** Seals after `after` (a sequence), oldest first, at most `limit`, with their time-stamp tokens. */
export async function readSealFeed(db: Queryable, after: number, limit: number): Promise<SealFeedPage> {
  const { rows } = await db.query<{ data: LedgerSealedData }>({
    name: 'read-seal-feed',
    text: `SELECT data FROM events WHERE stream_id = $1 AND stream_version > $2 ORDER BY stream_version LIMIT $3`,
    values: [sealStreamId, after, limit],
  });
  const { rows: headRows } = await db.query<{ sequence: number; seal_hash: string }>({
    name: 'read-seal-feed-head',
    text: `SELECT stream_version AS sequence, data->>'sealHash' AS seal_hash FROM events WHERE stream_id = $1 AND stream_version IS NOT NULL ORDER BY stream_version DESC LIMIT 1`,
    values: [sealStreamId],
  });
  const sequences = rows.map((row) => row.data.sequence);
  const tokens = new Map<number, SealTimestampedData[]>();
  if (sequences.length > 0) {
    const { rows: tokenRows } = await db.query<{ data: SealTimestampedData }>({
      name: 'read-seal-feed-timestamps',
      text: `SELECT data FROM events WHERE stream_id = $1 AND (data->>'sequence')::int BETWEEN $2 AND $3 ORDER BY stream_version`,
      values: [sealTimestampStreamId, sequences[0], sequences.at(-1)],
    });
    for (const { data } of tokenRows) tokens.set(data.sequence, [...(tokens.get(data.sequence) ?? []), data]);
  }
  const head = headRows[0];
  return {
    seals: rows.map((row) => ({ ...row.data, timestamps: tokens.get(row.data.sequence) ?? [] })),
    head: head ? { sequence: head.sequence, sealHash: head.seal_hash } : null,
  };
}

/** What a witness keeps between runs: the installation's key and the newest head it accepted. */
export interface WitnessState {
  readonly url: string;
  readonly keyId: string;
  readonly publicKey: string;
  readonly sequence: number;
  readonly sealHash: string;
  readonly sealedAt: string;
  readonly checkedAt: string;
}

export type WitnessProblem = 'key-changed' | 'rewritten' | 'truncated' | 'forked' | 'bad-seal-hash' | 'bad-signature' | 'unknown-key' | 'malformed';

export interface WitnessEvidence {
  readonly problem: WitnessProblem;
  readonly sequence: number;
  /** What the witness holds (its state, or the seal before) and what the installation shows now. */
  readonly saw: unknown;
  readonly now: unknown;
  readonly message: string;
}

export type WitnessOutcome =
  | { readonly ok: true; readonly state: WitnessState; readonly followed: number; readonly firstRun: boolean }
  | { readonly ok: false; readonly evidence: WitnessEvidence; readonly state: WitnessState | null };

export interface WitnessSource {
  sealKey(): Promise<{ readonly keyId: string; readonly publicKey: string }>;
  seals(after: number, limit: number): Promise<SealFeedPage>;
}

/**
 * Follows the chain from the head in `state` (or from the first seal on a first run), checking each
 * seal, and returns the new head or the evidence that the history it saw was rewritten.
 */
export async function witnessSeals(source: WitnessSource, url: string, state: WitnessState | null, now = new Date()): Promise<WitnessOutcome> {
  const key = await source.sealKey();
  const publicKey = createPublicKey(key.publicKey);
  if (keyIdOf(publicKey) !== key.keyId) {
    return { ok: false, state, evidence: { problem: 'malformed', sequence: state?.sequence ?? 0, saw: null, now: key, message: `the published key's id ${key.keyId} is not the id of the key it publishes` } };
  }
  if (state && state.keyId !== key.keyId) {
    return {
      ok: false,
      state,
      evidence: { problem: 'key-changed', sequence: state.sequence, saw: { keyId: state.keyId }, now: { keyId: key.keyId }, message: `the installation now publishes key ${key.keyId}, not ${state.keyId} that signed the seals this witness saw (a lost key replaced with seal --new-key, or a new history)` },
    };
  }
  let previous: { sequence: number; sealHash: string; sealedAt: string } | null = null;
  let after = 0;
  if (state && state.sequence > 0) {
    // The head this witness saw must still be there, unchanged.
    const page = await source.seals(state.sequence - 1, 1);
    const seen = page.seals[0];
    if (!seen || seen.sequence !== state.sequence) {
      return {
        ok: false,
        state,
        evidence: { problem: 'truncated', sequence: state.sequence, saw: { sequence: state.sequence, sealHash: state.sealHash }, now: page.head, message: `seal ${state.sequence}, which this witness saw on ${state.checkedAt}, is gone (the chain now ends at ${page.head?.sequence ?? 'nothing'})` },
      };
    }
    if (seen.sealHash !== state.sealHash || sealHashOf(seen) !== state.sealHash) {
      return {
        ok: false,
        state,
        evidence: { problem: 'rewritten', sequence: state.sequence, saw: { sequence: state.sequence, sealHash: state.sealHash, sealedAt: state.sealedAt }, now: seen, message: `seal ${state.sequence} is not the one this witness saw on ${state.checkedAt}: its hash was ${state.sealHash}, it is now ${sealHashOf(seen)} (the history was rewritten)` },
      };
    }
    previous = { sequence: state.sequence, sealHash: state.sealHash, sealedAt: state.sealedAt };
    after = state.sequence;
  }
  let followed = 0;
  for (;;) {
    const page = await source.seals(after, 1000);
    for (const seal of page.seals) {
      const evidence = (problem: WitnessProblem, message: string): WitnessOutcome => ({
        ok: false,
        state,
        evidence: { problem, sequence: seal.sequence, saw: previous, now: seal, message: `seal ${seal.sequence}: ${message}` },
      });
      if (seal.sequence !== (previous?.sequence ?? 0) + 1) return evidence('forked', `expected seal ${(previous?.sequence ?? 0) + 1} next in the chain`);
      if (seal.previousSealHash !== (previous?.sealHash ?? null)) {
        return evidence('forked', `it chains to ${seal.previousSealHash ?? 'nothing'}, not to ${previous?.sealHash ?? 'nothing'}, the seal before it that this witness accepted (a fork of the history)`);
      }
      if (sealHashOf(seal) !== seal.sealHash) return evidence('bad-seal-hash', 'its hash does not match its contents');
      if (seal.keyId !== key.keyId) return evidence('unknown-key', `it is signed by key ${seal.keyId}, not the published ${key.keyId}`);
      if (!verifySealSignature(publicKey, seal.sealHash, seal.signature)) return evidence('bad-signature', 'its signature does not verify with the published key');
      previous = { sequence: seal.sequence, sealHash: seal.sealHash, sealedAt: seal.sealedAt };
      followed++;
    }
    if (page.seals.length === 0) break;
    after = page.seals.at(-1)!.sequence;
  }
  if (!previous) {
    return { ok: true, followed: 0, firstRun: state === null, state: { url, keyId: key.keyId, publicKey: key.publicKey, sequence: 0, sealHash: '', sealedAt: '', checkedAt: now.toISOString() } };
  }
  return {
    ok: true,
    followed,
    firstRun: state === null,
    state: { url, keyId: key.keyId, publicKey: key.publicKey, sequence: previous.sequence, sealHash: previous.sealHash, sealedAt: previous.sealedAt, checkedAt: now.toISOString() },
  };
}
