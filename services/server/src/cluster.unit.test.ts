// How many HTTP workers are forked, and with which Node options.
import { describe, expect, it } from 'vitest';
import { httpWorkerCount, withYoungGeneration } from './cluster';

describe('withYoungGeneration', () => {
  it('adds a larger young generation to the primary’s own options', () => {
    expect(withYoungGeneration(['--import', 'tsx'], '')).toEqual(['--import', 'tsx', '--max-semi-space-size=64']);
  });

  it('leaves the options alone when the operator set the young generation, on the command line or in NODE_OPTIONS', () => {
    expect(withYoungGeneration(['--max-semi-space-size=16'], '')).toEqual(['--max-semi-space-size=16']);
    expect(withYoungGeneration(['--import', 'tsx'], '--enable-source-maps --max-semi-space-size=8')).toEqual(['--import', 'tsx']);
  });
});

describe('httpWorkerCount', () => {
  const everything = ['ingest', 'api', 'projectors', 'relay', 'jobs'] as const;

  it('with auto, leaves the primary a core of its own when it runs background roles', () => {
    expect(httpWorkerCount({ HTTP_WORKERS: 'auto' }, everything, 2)).toBe(1);
    expect(httpWorkerCount({ HTTP_WORKERS: 'auto' }, everything, 8)).toBe(7);
    expect(httpWorkerCount({ HTTP_WORKERS: 'auto' }, ['ingest', 'jobs'], 4)).toBe(3);
  });

  it('with auto, gives every core a worker when the primary only watches over them', () => {
    expect(httpWorkerCount({ HTTP_WORKERS: 'auto' }, ['ingest', 'api'], 8)).toBe(8);
    expect(httpWorkerCount({ HTTP_WORKERS: 'auto' }, ['api'], 2)).toBe(2);
  });

  it('with auto on one core, serves HTTP from the main process', () => {
    expect(httpWorkerCount({ HTTP_WORKERS: 'auto' }, everything, 1)).toBe(0);
    expect(httpWorkerCount({ HTTP_WORKERS: 'auto' }, ['ingest'], 1)).toBe(0);
  });

  it('forks exactly the number the operator set', () => {
    expect(httpWorkerCount({ HTTP_WORKERS: 3 }, everything, 2)).toBe(3);
    expect(httpWorkerCount({ HTTP_WORKERS: 0 }, ['ingest', 'api'], 8)).toBe(0);
  });
});
