// Does the visitor's latest choice in the log still allow identification? Asked before every
// enrichment call (docs/identification.md, "The rule that keeps it lawful"), with the same reading
// of the log that ingest uses for identify requests (`checkIdentificationAllowed` of
// @consentry/infra: the visitor's latest choice, on whatever banner it was made).
// One difference: a later choice that keeps identification on (the visitor changed another purpose,
// or allowed it again) does not stop an enrichment the earlier grant queued.
import { checkIdentificationAllowed as checkIdentifyRequest, type Queryable } from '@consentry/infra';

export interface IdentificationCheckInput {
  readonly websiteId: string;
  readonly visitorId: string;
  /** The choice the identification relied on (VisitorIdentified / CompanyMatched `consentEventId`). */
  readonly consentEventId: string;
}

export type IdentificationCheck = (db: Queryable, input: IdentificationCheckInput) => Promise<boolean>;

export const checkIdentificationAllowed: IdentificationCheck = async (db, input) => {
  const verdict = await checkIdentifyRequest(db, input);
  return verdict.allowed || verdict.reason === 'not_latest_choice';
};
