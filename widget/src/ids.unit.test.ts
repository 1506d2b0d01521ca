import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUuid, UUID_PATTERN } from './ids';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createUuid', () => {
  it('makes distinct v4 UUIDs', () => {
    const ids = new Set(Array.from({ length: 200 }, createUuid));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(UUID_PATTERN);
  });

  it('falls back to getRandomValues where randomUUID is missing (http pages)', () => {
    // Shadow the prototype's method on the instance, as a non-secure context has none.
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
        (array as unknown as Uint8Array).fill(0xff);
        return array;
      });
      // The random bits decide every digit but the version (4) and the variant's top bits (10xx).
      expect(createUuid()).toBe('efffffff-efff-4fff-bfff-efffffffffff');
      vi.mocked(crypto.getRandomValues).mockImplementation(<T extends ArrayBufferView | null>(array: T): T => array);
      expect(createUuid()).toBe('10000000-1000-4000-8000-100000000000');
      vi.mocked(crypto.getRandomValues).mockRestore();
      const ids = new Set(Array.from({ length: 100 }, createUuid));
      expect(ids.size).toBe(100);
      for (const id of ids) expect(id).toMatch(UUID_PATTERN);
    } finally {
      delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof crypto.randomUUID).toBe('function');
  });
});
