// The bus API for the rest of the code: the contract and its two adapters. The contract test suite
// (bus.contract.ts) is test-only and deliberately not exported here.
export type {
  Bus,
  BusConfig,
  ConsumeOptions,
  Consumption,
  DeliveredMessage,
  OutgoingMessage,
} from './bus';
export { createNatsBus, parseNatsServers, type BusLogger, type NatsBusOptions } from './nats-bus';
export {
  createMemoryBus,
  type MemoryBus,
  type MemoryBusOptions,
  type MemoryBusStats,
} from './memory-bus';
export { isFilterWithin, isValidFilter, isValidSubject, matchesSubject } from './subjects';
