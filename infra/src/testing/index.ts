// Test support shared by every package's tests: isolated databases, event builders, a loopback TCP
// proxy for outages, a machine that vanishes, and waiting on conditions. Imported as '@consentry/infra/testing'.
export * from './database';
export * from './consent-events';
export * from './tcp-proxy';
export * from './wait-for';
export * from './nats-streams';
export * from './nats-cluster';
export * from './browser';
export * from './log-visibility';
export * from './tables-holding';
export * from './vanishing-host';
export * from './time-stamping-authority';
