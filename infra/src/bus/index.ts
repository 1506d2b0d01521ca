// The bus API for the rest of the code: the contract and its two adapters. The contract test suite
// (bus.contract.ts) is test-only and deliberately not exported here.
import type { Bus } from './bus';
import type { NatsBusOptions } from './nats-bus';

export type {
  Bus,
  BusConfig,
  ConsumeOptions,
  Consumption,
  DeliveredMessage,
  OutgoingMessage,
} from './bus';
export type { BusLogger, NatsBusOptions } from './nats-bus';
export { parseNatsServers } from './nats-servers';

/** The NATS JetStream adapter (nats-bus.ts), loaded when first asked for: without NATS_URL, never. */
export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  return (await import('./nats-bus')).createNatsBus(options);
}
export {
  createMemoryBus,
  type MemoryBus,
  type MemoryBusOptions,
  type MemoryBusStats,
} from './memory-bus';
export { isFilterWithin, isValidFilter, isValidSubject, matchesSubject } from './subjects';
