import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, resolveLogFormat } from './logger';

describe('the log format', () => {
  it('is pretty in a terminal and JSON anywhere else, unless set', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });
});

function capture(): { sink: Writable; text: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { sink, text: () => chunks.join('') };
}

describe('a logger', () => {
  it('writes one JSON object per line when not pretty', () => {
    const { sink, text } = capture();
    createLogger({ format: 'json', destination: sink }).info({ websiteId: 'w1' }, 'scan queued');
    expect(JSON.parse(text().trim())).toMatchObject({ level: 30, msg: 'scan queued', websiteId: 'w1' });
  });

  it('writes a readable line when pretty', () => {
    const { sink, text } = capture();
    createLogger({ format: 'pretty', destination: sink }).warn('projection behind');
    expect(text()).toMatch(/WARN.*projection behind/);
    expect(() => JSON.parse(text())).toThrow();
  });

  it.each(['json', 'pretty'] as const)('never writes a secret or a password (%s)', (format) => {
    const { sink, text } = capture();
    createLogger({ format, destination: sink }).info({ endpoint: { secret: 'whsec_do-not-print', url: 'https://crm.example' }, password: 'hunter2' }, 'endpoint added');
    expect(text()).toContain('crm.example');
    expect(text()).not.toContain('whsec_do-not-print');
    expect(text()).not.toContain('hunter2');
  });
});

describe('a logger given a destination', () => {
  it('writes there and nothing on standard output (a command whose stdout is its --json answer)', () => {
    const { sink, text } = capture();
    const stdout = vi.spyOn(process.stdout, 'write');
    try {
      for (const format of ['json', 'pretty', 'auto'] as const) createLogger({ format, destination: sink }).info('reusing the embedded PostgreSQL');
      expect(stdout).not.toHaveBeenCalled();
    } finally {
      stdout.mockRestore();
    }
    expect(text().match(/reusing the embedded PostgreSQL/g)).toHaveLength(3);
  });

  it('is pretty under `auto` when that destination is a terminal, JSON when it is not', () => {
    const terminal = capture();
    Object.assign(terminal.sink, { isTTY: true });
    createLogger({ format: 'auto', destination: terminal.sink }).info('on a terminal');
    expect(terminal.text()).toMatch(/INFO.*on a terminal/);
    const pipe = capture();
    createLogger({ format: 'auto', destination: pipe.sink }).info('in a pipe');
    expect(JSON.parse(pipe.text().trim())).toMatchObject({ msg: 'in a pipe' });
  });
});
