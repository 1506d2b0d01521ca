// Configuration validation: defaults, and one clear line per mistake without leaking secrets.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('when nothing is set', () => {
  it('runs on the embedded default on port 3000', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.NATS_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe('.data');
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });
});

describe('when values are wrong', () => {
  it('reports every problem at once, naming each variable', () => {
    const error = (() => {
      try {
        loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://root:hunter2@db/x', NATS_URL: 'http://nats', LOG_LEVEL: 'loud' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      'PORT: must be a whole number from 1 to 65535 (got "abc")',
      'DATABASE_URL: must start with postgres:// or postgresql:// (got a value that was not accepted)',
      'NATS_URL: must be one or more comma-separated URLs such as nats://127.0.0.1:4222 (got a value that was not accepted)',
      expect.stringMatching(/^LOG_LEVEL: .* \(got "loud"\)$/),
    ]);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT: must be a whole number from 1 to 65535 (got "70000")');
  });
});

describe('when PUBLIC_URL is set', () => {
  it('is used without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://consent.example.com/' }).publicUrl).toBe('https://consent.example.com');
  });
});
