// Structured logging with pino. Secrets never reach the log: credentials, cookies and session ids
// are redacted wherever they appear in logged objects. In a terminal the lines are printed readably
// (pino-pretty); anywhere else (a pipe, a file, systemd's journal, a log shipper) one JSON object per
// line, which is what machines read.
import pino from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import { serializeRequest } from './request-serializer';

export type Logger = pino.Logger;

/** `auto`: pretty when the log's destination (standard output unless told) is a terminal, JSON otherwise. */
export const logFormats = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof logFormats)[number];

export function resolveLogFormat(format: LogFormat, isTerminal: boolean): 'pretty' | 'json' {
  return format === 'auto' ? (isTerminal ? 'pretty' : 'json') : format;
}

export interface LoggerOptions {
  readonly level?: string;
  readonly name?: string;
  readonly format?: LogFormat;
  /**
   * Where lines go: standard output unless given. Commands whose standard output is their answer
   * (`--json`, a report, an export) log to process.stderr. `auto` looks at whether this is a terminal.
   */
  readonly destination?: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings: pino.LoggerOptions = {
    name: options.name ?? 'consentry',
    level: options.level ?? 'info',
    // Replaces fastify's: the client address truncated (request-serializer.ts).
    serializers: { req: serializeRequest },
    redact: {
      paths: [
        'password',
        '*.password',
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'connectionString',
        '*.connectionString',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  const isTerminal = Reflect.get(options.destination ?? process.stdout, 'isTTY') === true;
  if (resolveLogFormat(options.format ?? 'auto', isTerminal) === 'json') {
    return options.destination ? pino(settings, options.destination) : pino(settings);
  }
  // Synchronous, in this thread: no worker to lose lines when the process exits. Loaded only here:
  // most processes log JSON, and every start would pay for it.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pino(
    settings,
    pretty({ colorize: isTerminal, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination: options.destination ?? 1 }),
  );
}
