export { ingestPlugin, maxBodyBytes, type IngestOptions } from './app';
export { createGeoLocator, type GeoLocator, type GeoSource } from './enrich/geo';
