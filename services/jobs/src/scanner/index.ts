// The cookie and tracker scanner's engine: visit a website in headless Chromium (scanWebsite), then
// classify what it stored and whom it contacted, and name the violations (classifyObservation).
export { launchScannerBrowser, ChromiumMissingError, defaultChromiumPath, type ScannerBrowserOptions } from './browser';
export { scanWebsite, scanDefaults, ScanError, type ScanErrorCode, type ScanOptions } from './scan-website';
export { createAddressGuard, type AddressAllowance, type AddressGuard } from './address-guard';
export {
  classifyObservation,
  severityOf,
  maxListedPages,
  type ClassifiedScan,
  type ClassifyObservationOptions,
  type DeclaredService,
  type FindingSeverity,
  type PurposeAssignment,
  type ScannedHost,
} from './findings';
export { createHostClassifier, getDefaultHostClassifier, type HostClassification, type HostClassifier } from './known-hosts';
export type { ConsentModeSignal, ObservedCookie, PageObservation, PageVisit, ScanObservation, VisitMode } from './observation';
export { visitModes } from './observation';
export {
  getScanRootUrls,
  installationScanOptions,
  maxAutoScanRunners,
  memoryPerScanRunnerMiB,
  runNextScan,
  scanRunnerCount,
  scheduleDueScans,
  startScanRunner,
  type ScanOutcome,
  type ScanRunner,
  type ScanRunnerOptions,
} from './scan-runner';
export { newFindingsEmail } from './scan-notification';
