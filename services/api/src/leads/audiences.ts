// Audience files: the emails of leads whose identification still stands, normalised and hashed with
// SHA-256 in the upload format each ad platform documents, so an owner can reach their leads through
// Google Ads, Meta or LinkedIn ads without handing any platform a readable address. The formats, as
// documented when this was written:
//
// - Google Ads Customer Match — https://support.google.com/google-ads/answer/7659867 ("Format your
//   customer data file"): a CSV file in ASCII or UTF-8 whose column headers are the English names,
//   "Email" for email matching; data may be hashed with SHA-256 beforehand. Normalisation, per
//   https://developers.google.com/google-ads/api/docs/remarketing/audience-types/customer-match:
//   remove leading and trailing whitespace and convert to lowercase, then SHA-256. Google's page
//   says removing the periods before the domain of gmail.com / googlemail.com addresses is *not*
//   required ("they'll still be accepted"); that rule belongs to Campaign Manager 360's enhanced
//   conversions, so it is not applied here: one address, one hash, the same one Meta and LinkedIn get.
// - Meta custom audiences (customer list) — https://www.facebook.com/business/help/2082575038703844
//   ("How to format a customer list"): column header `email`, one address per cell; the Marketing
//   API's hashing rules (https://developers.facebook.com/docs/marketing-api/audiences/guides/custom-audiences)
//   ask for the address trimmed and lower-cased, then SHA-256 in lower-case hex.
// - LinkedIn Matched Audiences (contact list) — https://www.linkedin.com/help/lms/answer/a1489764
//   ("Requirements for contact targeting lists"): the Campaign Manager CSV template must keep its
//   headers unchanged (`email,firstname,lastname,jobtitle,employeecompany,country,googleaid`,
//   LinkedIn_Ads_Contact_Match_Template.csv), and the email column may hold SHA-256 hashed addresses.
//   Only the email column is filled: the file carries no readable personal data.
//
// Every platform asks for at least a few hundred matched people before an audience serves; that is
// the owner's to see in the platform, not a reason to refuse a smaller file here.
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
