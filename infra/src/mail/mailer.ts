// Outgoing email (invitation links): nodemailer over SMTP_URL, from MAIL_FROM. Without SMTP_URL
// there is no mailer, and whoever would have been emailed is shown the link instead (the admin who
// invites copies it). A failed delivery is reported to the caller, never thrown past it: the
// invitation exists either way, and its link is always shown.
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  /** Resolves when the SMTP server accepted the message; rejects with its reason otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  readonly url: string;
  readonly from: string;
  /** Give up on a server that does not answer (ms). */
  readonly timeoutMs?: number;
}

export function createSmtpMailer({ url, from, timeoutMs = 10_000 }: SmtpMailerOptions): Mailer {
  const parsed = new URL(url);
  // nodemailer is loaded with the first message, not at every start.
  let transport: Promise<Transporter> | undefined;
  const connect = async () => (await import('nodemailer')).default.createTransport({
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : parsed.protocol === 'smtps:' ? 465 : 587,
    secure: parsed.protocol === 'smtps:',
    ...(parsed.username ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(message) {
      transport ??= connect();
      await (await transport).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => void transport?.then((opened) => opened.close(), () => undefined),
  };
}
