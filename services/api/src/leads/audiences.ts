// Audience files: the emails of leads whose identification still stands, normalised and hashed with
// SHA-256 in the upload format each ad platform documents (Google Ads, Meta, LinkedIn), so no
// platform gets a readable address. The formats and their sources: docs/identification.md, "Audience files".
import { createHash } from 'node:crypto';

export const audienceFormats = ['google', 'meta', 'linkedin'] as const;
export type AudienceFormat = (typeof audienceFormats)[number];

/** The header row of each platform's file. */
export const audienceHeaders: Readonly<Record<AudienceFormat, readonly string[]>> = {
  google: ['Email'],
  meta: ['email'],
  linkedin: ['email', 'firstname', 'lastname', 'jobtitle', 'employeecompany', 'country', 'googleaid'],
};

/**
 * An email as every platform above normalises it before hashing: leading and trailing whitespace
 * removed, lower-cased. Leads' emails are stored normalised already (`normaliseEmail` at ingest);
 * this is applied again so a file never depends on that.
 */
export function normaliseAudienceEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** SHA-256 of the normalised email, as lower-case hex (what all three platforms read). */
export function hashAudienceEmail(email: string): string {
  return createHash('sha256').update(normaliseAudienceEmail(email), 'utf8').digest('hex');
}

/** One row of the platform's file for one email. */
export function audienceRow(format: AudienceFormat, email: string): string[] {
  const hash = hashAudienceEmail(email);
  return format === 'linkedin' ? [hash, '', '', '', '', '', ''] : [hash];
}
