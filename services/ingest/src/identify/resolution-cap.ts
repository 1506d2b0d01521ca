// The owner's monthly resolution cap at the edge (docs/identification.md, "Limits"): before ingest
// records an identification (or a company match, which also resolves a visitor), the person is
// admitted toward this month's resolutions. A person already admitted this month (the same email, or
// the same visitor) always is; a new one only while the website's admissions are below its cap.
//
// Admissions (resolution_admissions, resolution_tallies; migration 023) key people as the leads
// projection's resolutions do (resolution_person_key), so the bill never counts a person the cap
// did not: the tally is an upper bound of the billed count, reached together in the usual case. Each
// website's tally row is locked for the decision, so two processes admitting the last place at once
// admit one. Admissions are recorded with no cap set too, so a cap set mid-month counts the month.
import type { Queryable } from '@consentry/infra';
import { IngestError } from '../errors';

export interface ResolutionRequest {
  readonly websiteId: string;
  readonly visitorId: string;
  /** The normalised email identified; null for a visitor only their network names. */
  readonly email: string | null;
  /** When it is recorded (ISO, UTC): its month is the period. */
  readonly at: string;
}

export type Admission = { readonly admitted: true; readonly newPerson: boolean } | { readonly admitted: false; readonly cap: number };

/** The first day of the UTC month of an ISO instant, as the leads projection's months are. */
export const periodOf = (at: string): string => `${new Date(at).toISOString().slice(0, 7)}-01`;

interface KnownRow {
  person: boolean;
  visitor: boolean;
}

async function knownAlready(db: Queryable, request: ResolutionRequest, period: string): Promise<KnownRow> {
  const { rows } = await db.query<KnownRow>({
    name: 'resolution-admission-known',
    text: `SELECT EXISTS (SELECT 1 FROM resolution_admissions
                           WHERE website_id = $1 AND period = $2 AND person_key = resolution_person_key($1, $3, $4)) AS person,
                  EXISTS (SELECT 1 FROM resolution_admissions WHERE website_id = $1 AND period = $2 AND visitor_id = $3) AS visitor`,
    values: [request.websiteId, period, request.visitorId, request.email],
  });
  return rows[0]!;
}

/** Records a further key of a person already admitted (a network-matched visitor's email), counting nothing. */
async function addAlias(db: Queryable, request: ResolutionRequest, period: string): Promise<void> {
  await db.query({
    name: 'resolution-admission-alias',
    text: `INSERT INTO resolution_admissions (website_id, period, person_key, visitor_id, admitted_at)
           VALUES ($1, $2, resolution_person_key($1, $3, $4), $3, $5) ON CONFLICT DO NOTHING`,
    values: [request.websiteId, period, request.visitorId, request.email, request.at],
  });
}

/**
 * Admits the person of `request` toward the website's resolutions this month, or refuses (the cap is
 * reached and they are new). Runs its statements on `tx`, which must be a transaction: the tally's row
 * lock is held until it ends, and the admission stands only if it commits (ingest's identify decision
 * commits it with the VisitorIdentified it allowed).
 */
export async function admitResolution(tx: Queryable, request: ResolutionRequest): Promise<Admission> {
  const period = periodOf(request.at);
  const before = await knownAlready(tx, request, period);
  if (before.person) return { admitted: true, newPerson: false };
  if (before.visitor) {
    if (request.email !== null) await addAlias(tx, request, period);
    return { admitted: true, newPerson: false };
  }
  // A new person, as far as this snapshot shows: decide on the locked tally, looking again once it
  // is locked (an admission of the same person may have committed while waiting for it).
  await tx.query({
    name: 'resolution-tally-ensure',
    text: 'INSERT INTO resolution_tallies (website_id, period, people) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING',
    values: [request.websiteId, period],
  });
  const { rows } = await tx.query<{ people: number; cap: number | null }>({
    name: 'resolution-tally-lock',
    text: `SELECT t.people, (SELECT w.monthly_resolution_cap FROM websites w WHERE w.id = t.website_id) AS cap
             FROM resolution_tallies t WHERE t.website_id = $1 AND t.period = $2 FOR UPDATE`,
    values: [request.websiteId, period],
  });
  const { people, cap } = rows[0]!;
  const after = await knownAlready(tx, request, period);
  if (after.person || after.visitor) {
    if (!after.person && request.email !== null) await addAlias(tx, request, period);
    return { admitted: true, newPerson: false };
  }
  if (cap !== null && people >= cap) return { admitted: false, cap };
  await tx.query({
    name: 'resolution-admit',
    text: `WITH admitted AS (
             INSERT INTO resolution_admissions (website_id, period, person_key, visitor_id, admitted_at)
             VALUES ($1, $2, resolution_person_key($1, $3, $4), $3, $5)
           )
           UPDATE resolution_tallies SET people = people + 1 WHERE website_id = $1 AND period = $2`,
    values: [request.websiteId, period, request.visitorId, request.email, request.at],
  });
  return { admitted: true, newPerson: true };
}

export const resolutionCapReached = (): IngestError =>
  new IngestError(
    403,
    'RESOLUTION_CAP_REACHED',
    "This website has reached its owner's monthly limit of identified visitors; visitors already identified this month still are",
  );

/**
 * For ingest's identify decision: admits the person inside the decision's transaction, or throws
 * RESOLUTION_CAP_REACHED (403: the widget does not retry it; nothing of the request is stored).
 */
export async function admitIdentification(tx: Queryable, request: ResolutionRequest): Promise<void> {
  const admission = await admitResolution(tx, request);
  if (!admission.admitted) throw resolutionCapReached();
}
