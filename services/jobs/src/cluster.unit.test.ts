// The Node options HTTP workers are forked with.
import { describe, expect, it } from 'vitest';
import { withYoungGeneration } from './cluster';

describe('withYoungGeneration', () => {
  it('adds a larger young generation to the primary’s own options', () => {
    expect(withYoungGeneration(['--import', 'tsx'], '')).toEqual(['--import', 'tsx', '--max-semi-space-size=64']);
  });

  it('leaves the options alone when the operator set the young generation, on the command line or in NODE_OPTIONS', () => {
    expect(withYoungGeneration(['--max-semi-space-size=16'], '')).toEqual(['--max-semi-space-size=16']);
    expect(withYoungGeneration(['--import', 'tsx'], '--enable-source-maps --max-semi-space-size=8')).toEqual(['--import', 'tsx']);
  });
});
