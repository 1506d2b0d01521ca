// A command's log goes to standard error: its standard output is its answer alone (one JSON
// document with --json), whatever the log level and format.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '@consentry/infra';
import { createCommandLogger } from './job';

describe("a command's logger", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(['json', 'pretty', 'auto'] as const)('writes to standard error, never standard output (%s)', (format) => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    createCommandLogger(loadConfig({ LOG_LEVEL: 'debug', LOG_FORMAT: format })).info('started the embedded PostgreSQL for this command');
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr.mock.calls.map(([chunk]) => String(chunk)).join('')).toContain('started the embedded PostgreSQL for this command');
  });
});
