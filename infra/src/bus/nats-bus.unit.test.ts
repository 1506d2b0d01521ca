// How the NATS adapter reads NATS_URL: one server, or a cluster's servers separated by commas.
import { describe, expect, it } from 'vitest';
import { parseNatsServers } from './nats-servers';

describe('parseNatsServers', () => {
  it('reads one URL as one server', () => {
    expect(parseNatsServers('nats://127.0.0.1:4222')).toEqual(['nats://127.0.0.1:4222']);
  });

  it('reads comma-separated URLs as a cluster, ignoring blanks around them', () => {
    expect(parseNatsServers(' nats://a:4222, nats://b:4222 ,nats://c:4222,')).toEqual([
      'nats://a:4222',
      'nats://b:4222',
      'nats://c:4222',
    ]);
  });

  it('accepts a list, each entry possibly comma-separated', () => {
    expect(parseNatsServers(['nats://a:4222,nats://b:4222', 'tls://c:4222'])).toEqual([
      'nats://a:4222',
      'nats://b:4222',
      'tls://c:4222',
    ]);
  });

  it('refuses a value with no URL in it', () => {
    expect(() => parseNatsServers(' , ')).toThrow(/no NATS server/);
    expect(() => parseNatsServers([])).toThrow(/no NATS server/);
  });
});
