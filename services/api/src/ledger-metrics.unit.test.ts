// The ledger's metrics as a scrape shows them: open dead letters are read from their source at each
// scrape (so every process reports the database's truth), and a scrape survives that source failing.
import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createLedgerMetrics } from './metrics';

describe('the dead-letter metrics', () => {
  it('report open dead letters per projection as of the scrape, and count parked events', async () => {
    const registry = new Registry();
    let open = new Map([['consent-records', 2]]);
    const metrics = createLedgerMetrics(registry, { openDeadLetters: async () => open });
    metrics.observeParked('consent-records');
    metrics.observeParked('consent-records');

    let text = await registry.metrics();
    expect(text).toContain('consentry_projection_dead_letters{projection="consent-records"} 2');
    expect(text).toContain('consentry_projection_parked_events_total{projection="consent-records"} 2');

    open = new Map([['analytics', 1]]);
    text = await registry.metrics();
    expect(text).toContain('consentry_projection_dead_letters{projection="analytics"} 1');
    expect(text).not.toContain('consentry_projection_dead_letters{projection="consent-records"}');
  });

  it('leave the gauge empty rather than failing the scrape when the database is away', async () => {
    const registry = new Registry();
    createLedgerMetrics(registry, { openDeadLetters: () => Promise.reject(new Error('Connection terminated')) });
    const text = await registry.metrics();
    expect(text).toContain('# TYPE consentry_projection_dead_letters gauge');
    expect(text).not.toMatch(/consentry_projection_dead_letters\{/);
  });
});
