// A real SMTP server on loopback (smtp-server), behaving as a mail relay does: it accepts mail,
// and refuses recipients a test marks as unknown (550), so both outcomes are exercised for real.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
}

export interface LoopbackSmtp {
  readonly url: string;
  readonly received: ReceivedMail[];
  /** Recipients refused with 550 (an unknown mailbox). */
  readonly refused: Set<string>;
  close(): Promise<void>;
}

export async function startLoopbackSmtp(): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  const refused = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address)) {
        callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, refused, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The text body of a single-part message, quoted-printable decoded. */
export function bodyOf(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return /^Content-Transfer-Encoding: quoted-printable/im.test(raw)
    ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : body;
}
