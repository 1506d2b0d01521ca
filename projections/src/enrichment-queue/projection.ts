// The enrichment-queue reactor (async; docs/identification.md, "Enrichment"): queues one enrichment
// job per VisitorIdentified with an email and per CompanyMatched, for visitors whose latest choice
// allows identification, and cancels a visitor's waiting jobs when a later choice withdraws it. The
// jobs themselves (enrichment_jobs) are the worker's (services/jobs/src/enrichment/): they are not
// this projection's tables, so a replay never drops one, and each is keyed by its source event
// (job id derived from the event id, ON CONFLICT on source_event_id), so redelivery or a replay
// queues nothing twice.
//
// Which visitors allow identification the reactor knows from the choices it has applied itself
// (enrichment_queue_visitors, its own table: a reactor must not read another async projection's
// tables, which may be behind or ahead of it). A withdrawal only marks the jobs 'cancelled'; it
// records no event (the leads projection turns a pending enrichment into 'none' on withdrawal).
import { createHash } from 'node:crypto';
import { allowsIdentification } from '@consentry/events';
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import { leadKeyOf, visitorKeysOf } from '../leads/fold';
import type { Projection } from '../projection';

/** The provider name a job is queued for; the worker sends it to the configured provider. */
export const defaultEnrichmentProvider = 'default';

/** A job is given up this long after the identification it enriches. */
export const enrichmentDeadlineMs = 24 * 60 * 60 * 1000;

/** What a job asks the provider about; `domain` is the email's, unless that is a free-mail domain. */
export interface EnrichmentInput {
  readonly email: string | null;
  readonly domain: string | null;
  readonly company: string | null;
}

/**
 * Free-mail domains: an address there says nothing about the company someone works for, so its
 * domain is not sent as the company's. Exact domains, plus families registered under many country
 * suffixes (yahoo.co.uk, hotmail.fr, gmx.de, yandex.ru…). Deliberately short: a domain missing here
 * only costs one provider lookup that finds no company.
 */
export const freeMailDomains: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'ymail.com',
  'rocketmail.com',
  'web.de',
  't-online.de',
  'freenet.de',
  'proton.me',
  'pm.me',
  'protonmail.com',
  'tutanota.com',
  'mail.ru',
  'mail.com',
  'zoho.com',
  'fastmail.com',
  'hey.com',
  'qq.com',
  '163.com',
  '126.com',
  'naver.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  'btinternet.com',
  'comcast.net',
]);
const freeMailFamilies = /^(?:yahoo|hotmail|live|outlook|gmx|yandex)\.[a-z]{2,3}(?:\.[a-z]{2})?$/;

export function isFreeMailDomain(domain: string): boolean {
  return freeMailDomains.has(domain) || freeMailFamilies.test(domain);
}

/** The company domain an email tells: its domain, unless that is a free-mail one. */
export function enrichmentDomainOf(email: string | null): string | null {
  const at = email?.lastIndexOf('@') ?? -1;
  if (email === null || email === undefined || at < 0) return null;
  const domain = email.slice(at + 1).toLowerCase();
  return domain === '' || isFreeMailDomain(domain) ? null : domain;
}

// A fixed namespace for the job ids (RFC 9562 name-based, SHA-1: version 5).
const jobIdNamespace = Buffer.from('5b6f1c1e8a4d4f0e9d2a3c7b1e0f6a42', 'hex');

/** The enrichment job of an identification or company match: the same id for the same event, always. */
export function enrichmentJobIdOf(sourceEventId: string): string {
  const bytes = createHash('sha1').update(jobIdNamespace).update(sourceEventId.toLowerCase()).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const reactorTypes = ['ConsentGiven', 'ConsentDeclined', 'VisitorIdentified', 'CompanyMatched'] as const satisfies readonly StoredEvent['type'][];
type ReactorEvent = Extract<StoredEvent, { type: (typeof reactorTypes)[number] }>;
const isReactorEvent = (event: StoredEvent): event is ReactorEvent => (reactorTypes as readonly string[]).includes(event.type);

interface QueuedJob {
  readonly key: string;
  readonly jobId: string;
  readonly sourceEventId: string;
  readonly websiteId: string;
  readonly visitorId: string;
  readonly input: EnrichmentInput;
  readonly deadlineAt: string;
  cancelled: boolean;
}

interface Withdrawal {
  readonly websiteId: string;
  readonly visitorId: string;
  readonly transactionId: number;
  readonly position: number;
}

const withdrawnError = 'Identification withdrawn';

export const enrichmentQueueProjection: Projection = {
  name: 'enrichment-queue',
  canHandle: reactorTypes,

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const mine = events.filter(isReactorEvent);
    if (mine.length === 0) return;
    const keys = visitorKeysOf(mine.map((event) => [event.data.websiteId, event.data.visitorId] as const));
    const { rows } = await tx.query<{ website_id: string; visitor_id: string; consent_event_id: string }>({
      name: 'enrichment-queue-load-visitors',
      text: `SELECT website_id, visitor_id, consent_event_id FROM enrichment_queue_visitors
              WHERE (website_id, visitor_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
      values: [keys.websiteIds, keys.visitorIds],
    });
    const allowing = new Map(rows.map((row) => [leadKeyOf(row.website_id, row.visitor_id), row.consent_event_id]));
    const changed = new Map<string, { websiteId: string; visitorId: string; consentEventId: string | null }>();
    const withdrawals = new Map<string, Withdrawal>();
    const jobs: QueuedJob[] = [];
    const deadlineOf = (at: string) => new Date(Date.parse(at) + enrichmentDeadlineMs).toISOString();

    for (const event of mine) {
      const { websiteId, visitorId } = event.data;
      const key = leadKeyOf(websiteId, visitorId);
      switch (event.type) {
        case 'ConsentGiven':
        case 'ConsentDeclined':
          if (allowsIdentification(event.data)) {
            allowing.set(key, event.eventId);
            changed.set(key, { websiteId, visitorId, consentEventId: event.eventId });
          } else if (allowing.has(key)) {
            allowing.delete(key);
            changed.set(key, { websiteId, visitorId, consentEventId: null });
            withdrawals.set(key, { websiteId, visitorId, transactionId: event.transactionId, position: event.position });
            for (const job of jobs) if (job.key === key) job.cancelled = true;
          }
          break;
        case 'VisitorIdentified': {
          const { email, company, receivedAt } = event.data;
          if (!allowing.has(key) || email === null) break;
          const input = { email, domain: enrichmentDomainOf(email), company };
          jobs.push({ key, jobId: enrichmentJobIdOf(event.eventId), sourceEventId: event.eventId, websiteId, visitorId, input, deadlineAt: deadlineOf(receivedAt), cancelled: false });
          break;
        }
        case 'CompanyMatched': {
          const { organisation, matchedAt } = event.data;
          if (!allowing.has(key) || organisation === null) break;
          const input = { email: null, domain: null, company: organisation };
          jobs.push({ key, jobId: enrichmentJobIdOf(event.eventId), sourceEventId: event.eventId, websiteId, visitorId, input, deadlineAt: deadlineOf(matchedAt), cancelled: false });
          break;
        }
        default: {
          const unhandled: never = event;
          throw new Error(`enrichment-queue: unhandled event ${(unhandled as StoredEvent).type}`);
        }
      }
    }

    const kept = [...changed.values()].filter((row) => row.consentEventId !== null);
    const dropped = [...changed.values()].filter((row) => row.consentEventId === null);
    if (kept.length > 0) {
      await tx.query({
        name: 'enrichment-queue-keep-visitors',
        text: `INSERT INTO enrichment_queue_visitors (website_id, visitor_id, consent_event_id)
               SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[])
               ON CONFLICT (website_id, visitor_id) DO UPDATE SET consent_event_id = EXCLUDED.consent_event_id`,
        values: [kept.map((row) => row.websiteId), kept.map((row) => row.visitorId), kept.map((row) => row.consentEventId)],
      });
    }
    if (dropped.length > 0) {
      await tx.query({
        name: 'enrichment-queue-drop-visitors',
        text: `DELETE FROM enrichment_queue_visitors WHERE (website_id, visitor_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
        values: [dropped.map((row) => row.websiteId), dropped.map((row) => row.visitorId)],
      });
    }
    if (withdrawals.size > 0) {
      // Jobs queued before the withdrawal (in the log's order), whatever batch queued them: a
      // replay applying an old withdrawal leaves the jobs of a later identification alone.
      const list = [...withdrawals.values()];
      await tx.query({
        name: 'enrichment-queue-cancel-jobs',
        text: `UPDATE enrichment_jobs AS job
                  SET status = 'cancelled', finished_at = now(), last_error = $5
                 FROM unnest($1::uuid[], $2::text[], $3::int8[], $4::int8[]) AS withdrawal(website_id, visitor_id, transaction_id, position),
                      events AS source
                WHERE job.website_id = withdrawal.website_id AND job.visitor_id = withdrawal.visitor_id
                  AND job.status IN ('queued', 'running')
                  AND source.event_id = job.source_event_id
                  AND (source.transaction_id, source.position) < (withdrawal.transaction_id::text::xid8, withdrawal.position)`,
        values: [list.map((row) => row.websiteId), list.map((row) => row.visitorId), list.map((row) => row.transactionId), list.map((row) => row.position), withdrawnError],
      });
    }
    if (jobs.length > 0) {
      await tx.query({
        name: 'enrichment-queue-insert-jobs',
        text: `INSERT INTO enrichment_jobs (job_id, source_event_id, website_id, visitor_id, provider, input, status,
                                            next_attempt_at, deadline_at, created_at, finished_at, last_error)
               SELECT job.job_id, job.source_event_id, job.website_id, job.visitor_id, $2, job.input,
                      CASE WHEN job.cancelled THEN 'cancelled' ELSE 'queued' END, now(), job.deadline_at, now(),
                      CASE WHEN job.cancelled THEN now() END, CASE WHEN job.cancelled THEN $3 END
                 FROM jsonb_to_recordset($1::jsonb) AS job(job_id uuid, source_event_id uuid, website_id uuid, visitor_id text,
                                                          input jsonb, deadline_at timestamptz, cancelled boolean)
               ON CONFLICT (source_event_id) DO NOTHING`,
        values: [
          JSON.stringify(
            jobs.map((job) => ({
              job_id: job.jobId,
              source_event_id: job.sourceEventId,
              website_id: job.websiteId,
              visitor_id: job.visitorId,
              input: job.input,
              deadline_at: job.deadlineAt,
              cancelled: job.cancelled,
            })),
          ),
          defaultEnrichmentProvider,
          withdrawnError,
        ],
      });
    }
  },

  // Only the reactor's memory of who allows identification; the queue is the worker's.
  tables: ['enrichment_queue_visitors'],

  // A visitor whose latest choice was purged is one a replay of what is left would not know.
  async purged(removed: readonly StoredEvent[], _purgeEventId: string, tx: DbTransaction): Promise<void> {
    const choices = removed.filter((event): event is Extract<StoredEvent, { type: 'ConsentGiven' | 'ConsentDeclined' }> =>
      event.type === 'ConsentGiven' || event.type === 'ConsentDeclined');
    if (choices.length === 0) return;
    await tx.query({
      name: 'enrichment-queue-purge-visitors',
      text: `DELETE FROM enrichment_queue_visitors
              WHERE (website_id, visitor_id, consent_event_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[]))`,
      values: [choices.map((event) => event.data.websiteId), choices.map((event) => event.data.visitorId), choices.map((event) => event.eventId)],
    });
  },
};
