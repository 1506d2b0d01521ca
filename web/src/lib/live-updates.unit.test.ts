// Live updates invalidate exactly the query-key prefixes the server names, never everything.
import { describe, expect, it } from 'vitest';
import { applyLiveUpdate, parseLiveUpdate } from './live-updates';
import { createQueryClient } from './query-client';

describe('parseLiveUpdate', () => {
  it('reads a projection-advanced message', () => {
    expect(parseLiveUpdate('{"type":"projection-advanced","keys":[["stats"],["consents"]]}')).toEqual({
      type: 'projection-advanced',
      keys: [['stats'], ['consents']],
    });
  });

  it.each(['not json', '{"type":"other","keys":[["stats"]]}', '{"type":"projection-advanced"}', '42'])(
    'ignores %s',
    (data) => {
      expect(parseLiveUpdate(data)).toBeNull();
    },
  );

  it('drops empty prefixes, which would match every query', () => {
    expect(parseLiveUpdate('{"type":"projection-advanced","keys":[[],["stats"],"x"]}')?.keys).toEqual([['stats']]);
  });
});

describe('applyLiveUpdate', () => {
  it('invalidates the named prefixes and nothing else', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(['stats', 'consents'], {});
    queryClient.setQueryData(['stats', 'websites'], []);
    queryClient.setQueryData(['consents', { limit: 10 }], []);
    queryClient.setQueryData(['websites'], []);
    queryClient.setQueryData(['subscription', 'usage'], {});

    await applyLiveUpdate(queryClient, { type: 'projection-advanced', keys: [['stats'], ['consents']] });

    const invalidated = (key: unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(invalidated(['stats', 'consents'])).toBe(true);
    expect(invalidated(['stats', 'websites'])).toBe(true);
    expect(invalidated(['consents', { limit: 10 }])).toBe(true);
    expect(invalidated(['websites'])).toBe(false);
    expect(invalidated(['subscription', 'usage'])).toBe(false);
  });
});
