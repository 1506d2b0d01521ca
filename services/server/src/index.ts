// The composition root: everything `consentry start` wires together (services/server/src/system.ts),
// how many processes it runs (cluster.ts), and the installation's signing keys (seal-key.ts).
export { openBus, openDatabase, parseRoles, prepareDatabase, roles, startSystem, webAppDir, widgetScriptPath, type RunningSystem } from './system';
export { httpWorkerCount } from './cluster';
export { ownSealPublicKey, receiptSignerFor, sealSignerFor } from './seal-key';
