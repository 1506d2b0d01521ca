// The event store: append (versioned and group-commit), the command handler of versioned streams,
// gap-safe reads, checkpoints.
export * from './types';
export * from './errors';
export { appendInTransaction, appendToStream, prepareEvent, type AppendOptions, type AppendResult } from './append';
export { aggregateStream, handleCommand, type CommandResult, type HandleCommandOptions, type StreamState } from './command-handler';
export {
  createGroupCommitAppender,
  type GroupAppendRequest,
  type GroupAppendResult,
  type GroupCommitAppender,
  type GroupCommitOptions,
} from './group-commit';
export { appendUnversioned, decideOnStream, streamDecisionLockKeySql } from './stream-decision';
export { hasEventsAfter, readCommittedEvents, readCommittedHead, readEvent, readHorizon, readStream, type ReadCommittedOptions } from './read';
export { readCheckpoint, writeCheckpoint, lockCheckpoint, ensureCheckpoint, shareCheckpoint, projectionCheckpointName } from './checkpoints';
export { atCurrentVersion, eventColumns, toStoredEvent, type EventRow } from './rows';
export { checkIdentificationAllowed, latestChoiceSql, latestConsentChoice, type ConsentChoice } from './consent-choice';
