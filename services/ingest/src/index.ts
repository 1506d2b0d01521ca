export { ingestPlugin, maxBodyBytes, type IngestOptions } from './app';
export { createGeoLocator, type GeoLocator, type GeoSource } from './enrich/geo';
export { consentBody, engagementBody, impressionBody, pagehideBody, pageviewBody, type ConsentBody } from './collect/schemas';
export { deviceClassOf } from './enrich/device-class';
export { recordedChoiceOf, type RecordedChoice } from './collect/consent-choice';
export { normaliseIp, truncateIp, ipForStorage } from './enrich/ip-address';
