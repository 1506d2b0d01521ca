// Compliance jobs (docs/compliance.md): retention purges and a data subject's export and erasure,
// each sealed into the tamper-evident ledger. The `consentry purge` and `consentry subject`
// commands run them.
export { countPurgeable, purgeableTypes, purgeWebsite, retentionCutoff, runsOf, type Purgeable, type PurgeOptions, type WebsitePurgeSummary } from './purge';
export { eraseSubject, exportSubject, resolveVisitorIds, type ErasureSummary, type SubjectExport, type SubjectSelector } from './subject';
