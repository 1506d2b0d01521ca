// The registration emails' words (ours): confirming a new address, and telling the owner of an
// address that already has an account that someone tried to register it.
import type { MailMessage } from '@consentry/infra';

export function confirmRegistrationEmail(input: { to: string; link: string; productName: string }): MailMessage {
  return {
    to: input.to,
    subject: `Confirm your email for ${input.productName}`,
    text: [
      `Someone, hopefully you, asked to create a ${input.productName} account with this address.`,
      '',
      'Open this link to confirm the address and finish creating the account:',
      input.link,
      '',
      'The link works once and for 24 hours. If you did not ask for an account, ignore this email: nothing is created without it.',
    ].join('\n'),
  };
}

export function alreadyRegisteredEmail(input: { to: string; signInUrl: string; productName: string; invited: boolean }): MailMessage {
  return {
    to: input.to,
    subject: `About your ${input.productName} account`,
    text: [
      input.invited
        ? `Someone asked to create a ${input.productName} account with this address, which has an invitation waiting.`
        : `Someone asked to create a ${input.productName} account with this address, which already has one.`,
      '',
      input.invited
        ? 'To accept the invitation, open the link from the invitation email, or ask your administrator for a new one.'
        : `If it was you, sign in instead: ${input.signInUrl}`,
      '',
      'If it was not you, you can ignore this email: nothing has changed.',
    ].join('\n'),
  };
}
