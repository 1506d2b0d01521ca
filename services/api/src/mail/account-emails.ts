// Account emails' words (ours): confirming a registration, telling the owner of an address that
// already has an account that someone tried to register it, password reset links, and confirming
// (and announcing) a change of email.
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

export function passwordResetEmail(input: { to: string; link: string; productName: string }): MailMessage {
  return {
    to: input.to,
    subject: `Reset your ${input.productName} password`,
    text: [
      `Someone, hopefully you, asked to reset the password of the ${input.productName} account with this address.`,
      '',
      'Open this link to choose a new password:',
      input.link,
      '',
      'The link works once and for 1 hour. Choosing a new password signs the account out everywhere else.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

export function confirmEmailChangeEmail(input: { to: string; link: string; productName: string }): MailMessage {
  return {
    to: input.to,
    subject: `Confirm your new email for ${input.productName}`,
    text: [
      `Someone, hopefully you, asked to use this address to sign in to their ${input.productName} account.`,
      '',
      'Open this link to confirm the address; the account changes to it once you do:',
      input.link,
      '',
      'The link works once and for 24 hours. If you did not ask for this, ignore this email: nothing changes without it.',
    ].join('\n'),
  };
}

export function emailChangedNotice(input: { to: string; newEmail: string; productName: string }): MailMessage {
  return {
    to: input.to,
    subject: `Your ${input.productName} email was changed`,
    text: [
      `The ${input.productName} account that used this address now signs in with ${input.newEmail}.`,
      '',
      'If you did not do this, contact your administrator at once.',
    ].join('\n'),
  };
}
