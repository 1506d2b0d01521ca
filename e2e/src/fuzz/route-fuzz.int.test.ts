// The fuzz contract in `npm test`, at a size that runs in well under a minute: every route of the
// OpenAPI document and the widget's collection endpoints, generated requests from signed-out, owner
// and admin callers, and not one answer ≥ 500. `npm run fuzz` runs 20,000.
import { describe, expect, it } from 'vitest';
import { runRouteFuzz } from './route-fuzz';

describe('fuzzing every route', () => {
  it('gets no answer ≥ 500, and gets past validation on most routes', async () => {
    const summary = await runRouteFuzz({ requests: 5_000 });
    expect(summary.failures).toEqual([]);
    expect(summary.byStatusClass['5xx']).toBe(0);
    expect(summary.requests).toBe(5_000);
    // The fuzz reaches the handlers, not only the validators: most routes answered something < 400.
    const routes = [...summary.byRoute.values()];
    expect(routes.every((route) => route.requests > 0)).toBe(true);
    expect(routes.filter((route) => route.accepted > 0).length).toBeGreaterThan(routes.length / 2);
  }, 240_000);
});
