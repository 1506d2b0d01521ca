// The invitation email's words (ours).
import type { MailMessage } from '@consentry/infra';

export function invitationEmail(input: { to: string; link: string; productName: string; expiresAt: string }): MailMessage {
  const expires = new Date(input.expiresAt).toUTCString();
  return {
    to: input.to,
    subject: `Your invitation to ${input.productName}`,
    text: [
      `You have been invited to manage consent for your websites with ${input.productName}.`,
      '',
      'Open this link to choose your password and finish setting up your account:',
      input.link,
      '',
      `The link works once and until ${expires}. If you did not expect this invitation, you can ignore this email.`,
    ].join('\n'),
  };
}
