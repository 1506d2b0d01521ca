export { apiPlugin, type ApiOptions, type ReadinessCheck } from './app';
