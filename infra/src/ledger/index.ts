// The ledger's integrity: canonical digests of events, Merkle seals signed with the server's
// Ed25519 key, verification of the whole chain, and inclusion proofs for receipts.
export { canonicalJson, sha256Hex } from './canonical';
export { inclusionProof, leafHash, merkleRoot, nodeHash, verifyInclusion } from './merkle';
export { keyIdOf, loadOrCreateSealSigner, signerFromPrivateKey, verifySealSignature, type SealSigner } from './signing-key';
export {
  eventDigest,
  packPositions,
  readCommittedSealedEvents,
  readSealedEvents,
  sealedEventColumns,
  toSealedEvent,
  unpackDigests,
  unpackPositions,
  type LogKey,
  type SealedEvent,
  type SealedEventRow,
} from './sealed-events';
export {
  assertSealKeyMatches,
  readHorizonText,
  readLatestSeal,
  sealAll,
  sealHashOf,
  sealHeaderJson,
  sealNext,
  SealKeyMismatchError,
  startSealer,
  type RunningSealer,
  type SealAllOptions,
  type SealHeader,
  type SealOptions,
} from './seals';
export { createRecentDigests, sealedDigestOf, type RecentDigests, type SealedDigest } from './recent-digests';
export { verifyLedger, type TimestampSummary, type VerifyFinding, type VerifyFindingKind, type VerifyReport } from './verify';
export {
  buildTimestampRequest,
  loadTrustAnchors,
  requestTimestamp,
  TimestampRequestError,
  verifyTimestampToken,
  type ObtainedTimestamp,
  type TimestampCheck,
  type TimestampProblem,
} from './timestamps';
export { readSealTimestamps, readTimestampFor, startTimestamper, timestampLatestSeal, type RunningTimestamper } from './timestamper';
export {
  readSealFeed,
  witnessSeals,
  type FeedSeal,
  type SealFeedPage,
  type WitnessEvidence,
  type WitnessOutcome,
  type WitnessProblem,
  type WitnessSource,
  type WitnessState,
} from './witness';
export { proveEvent, readSealedEventById, type InclusionProof, type ProvenEvent } from './proof';
