// /metrics as the composed product serves it over the network: not on PORT (where visitors and
// owners come), but on METRICS_PORT, bound to loopback by default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebSystem, type WebSystem } from './web-harness';

let web: WebSystem;

beforeAll(async () => {
  web = await startWebSystem('metrics_port');
}, 120_000);
afterAll(async () => {
  await web?.stop();
});

describe('the product’s port', () => {
  it('does not serve the metrics', async () => {
    // Any other GET there is the web app's page, whose router shows its 404 screen.
    const response = await fetch(`${web.url}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/html');
    const body = await response.text();
    expect(body).not.toContain('consentry_http_requests_total');
    expect(body).not.toContain('# HELP');
  });
});

describe('the metrics port', () => {
  it('is bound to loopback and serves what the product’s port counted', async () => {
    const metricsUrl = new URL(web.system.metricsUrl ?? 'about:none');
    expect(metricsUrl.hostname).toBe('127.0.0.1');
    expect(metricsUrl.port).not.toBe(new URL(web.url).port);
    expect(metricsUrl.pathname).toBe('/metrics');
    await fetch(`${web.url}/healthz`);
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain('consentry_http_requests_total{method="GET",route="/healthz",status="200"}');
    expect(body).toContain('consentry_ingest_batch_size');
  });
});
