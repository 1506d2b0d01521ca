export { ingestPlugin, maxBodyBytes, type IngestOptions } from './app';
export { createGeoLocator, type GeoLocator, type GeoSource } from './enrich/geo';
export { consentBody, engagementBody, impressionBody, pagehideBody, pageviewBody, type ConsentBody } from './collect/schemas';
export { deviceClassOf } from './enrich/device-class';
export { recordedChoiceOf, type RecordedChoice } from './collect/consent-choice';
export { normaliseIp, truncateIp, ipForStorage } from './enrich/ip-address';
export { identifyBody, type IdentifyBody } from './collect/schemas';
export { companyMatchedEventId } from './identify/company-match';
export {
  classifyNetwork,
  createNetworkLookup,
  isCompanyNetwork,
  networkDataAttribution,
  type NetworkClassification,
  type NetworkKind,
  type NetworkLookup,
  type NetworkOwner,
} from './enrich/network';
export { createBackgroundWork, type BackgroundWork } from './background';
export { planOfTier, type OwnerPlan } from './website-resolver';
