// Reads of the consent-records read model: recent activity, newest first.
import type { ConsentMethod, ConsentRule, OptionalPurpose } from '@consentry/events';
import type { Queryable } from '@consentry/infra';

/** A consent record as the api answers it (spec section 3, "Consent record"). */
export interface ConsentRecord {
  readonly id: string;
  readonly websiteId: string;
  readonly timestamp: string;
  readonly consentChoice: 'accepted' | 'declined';
  readonly country: string | null;
  readonly city: string | null;
  readonly email: string | null;
  readonly ipAddress: string | null;
  /** The optional purposes the banner offered, and those granted (canonical order). */
  readonly offeredPurposes: readonly OptionalPurpose[];
  readonly grantedPurposes: readonly OptionalPurpose[];
  readonly method: ConsentMethod;
  readonly rule: ConsentRule;
  readonly region: string | null;
}

interface ConsentRecordRow {
  event_id: string;
  website_id: string;
  received_at: Date;
  choice: 'accepted' | 'declined';
  country: string | null;
  city: string | null;
  email: string | null;
  ip_address: string | null;
  offered: OptionalPurpose[];
  purposes: OptionalPurpose[];
  method: ConsentMethod;
  rule: ConsentRule;
  region: string | null;
}

const toConsentRecord = (row: ConsentRecordRow): ConsentRecord => ({
  id: row.event_id,
  websiteId: row.website_id,
  timestamp: row.received_at.toISOString(),
  consentChoice: row.choice,
  country: row.country,
  city: row.city,
  email: row.email,
  ipAddress: row.ip_address,
  offeredPurposes: row.offered,
  grantedPurposes: row.purposes,
  method: row.method,
  rule: row.rule,
  region: row.region,
});

/** The newest `limit` records of these websites (null: of every website, for admins). */
export async function listConsentRecords(
  db: Queryable,
  filter: { readonly websiteIds: readonly string[] | null; readonly limit: number },
): Promise<ConsentRecord[]> {
  if (filter.websiteIds !== null && filter.websiteIds.length === 0) return [];
  const { rows } = await db.query<ConsentRecordRow>({
    name: filter.websiteIds === null ? 'list-consent-records-all' : 'list-consent-records',
    text: `SELECT event_id, website_id, received_at, choice, country, city, email, ip_address, offered, purposes, method, rule, region
             FROM consent_records
            ${filter.websiteIds === null ? '' : 'WHERE website_id = ANY($2::uuid[])'}
            ORDER BY received_at DESC, event_id DESC
            LIMIT $1`,
    values: filter.websiteIds === null ? [filter.limit] : [filter.limit, filter.websiteIds],
  });
  return rows.map(toConsentRecord);
}

/** When the ledger last recorded a consent for a website (installation verification). */
export async function getLastConsentAt(db: Queryable, websiteId: string): Promise<string | null> {
  const { rows } = await db.query<{ received_at: Date }>({
    name: 'get-last-consent-at',
    text: 'SELECT received_at FROM consent_records WHERE website_id = $1 ORDER BY received_at DESC, event_id DESC LIMIT 1',
    values: [websiteId],
  });
  return rows[0]?.received_at.toISOString() ?? null;
}
