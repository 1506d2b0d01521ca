// bench:leads, part 3 (issue 27, item 4): a genuine website's enrichment latency while another website's
// flood fills the queue. Website B's leads arrive one at a time (each with its consent and
// identification in the log, as ingest and the reactor leave them) and are enriched by a worker at a
// provider rate shared by everyone; first with nothing else queued, then behind website A's flood of
// jobs (what one address made at the old ingest limit). Reported: B's latency from queued to enriched
// (p50 and max) in both runs and their ratio; and what first-in first-out claiming would have made B
// wait (A's queue at the provider's rate).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Db } from '@consentry/infra';
import { formatNumber, sleep, summarise, type Verdict } from './harness/harness';
import { createHttpEnrichmentProvider, startEnrichmentWorker } from '@consentry/jobs';
import { generateWebhookSecret, verifyWebhook, webhookHeaders } from '@consentry/jobs';

export interface FloodOptions {
  /** Website A's queued jobs (default 1,800: six minutes of one address at the old ingest limit). */
  readonly floodJobs: number;
  /** Website B's leads, arriving one every `arrivalMs`. */
  readonly genuineLeads: number;
  readonly arrivalMs: number;
  /** The provider's rate (calls per minute) and the worker's concurrency. */
  readonly ratePerMinute: number;
  readonly concurrency: number;
  /** The largest acceptable max-latency ratio (flood vs none). */
  readonly targetRatio: number;
}

/** A UUID (version 4 layout) derived from a seed in SQL, so an event and the rows naming it agree. */
const uuidOf = (seed: string) => `overlay(overlay(md5(${seed}) placing '4' from 13) placing '8' from 17)::uuid`;

/** Writes visitors `from`..`to` of a website: Accept All, their identification and the job the reactor queues (due now). */
async function queueLeads(db: Db, websiteId: string, tag: string, from: number, to: number): Promise<void> {
  const at = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  await db.query(
    `WITH consent AS (
       INSERT INTO events (event_id, stream_id, type, schema_version, data)
       SELECT ${uuidOf(`$2 || '-consent-' || n`)}, 'consent-' || $1 || '-' || $2 || '-' || n, 'ConsentGiven', 2,
              jsonb_build_object('websiteId', $1::text, 'visitorId', $2 || '-' || n, 'source', 'banner',
                'offered', jsonb_build_array('preferences', 'analytics', 'marketing', 'identification'),
                'purposes', jsonb_build_object('preferences', true, 'analytics', true, 'marketing', true, 'identification', true),
                'method', 'accept_all', 'rule', jsonb_build_object('rule', 'opt_in', 'region', 'EU'), 'policyVersion', '1',
                'shownLanguage', 'en', 'textsHash', null, 'language', 'en-US', 'pageUrl', 'https://www.example.com/',
                'ipAddress', '203.0.113.0', 'userAgent', 'Mozilla/5.0', 'deviceClass', 'desktop', 'country', 'DE', 'city', null, 'email', null,
                'occurredAt', ${at}, 'receivedAt', ${at})
         FROM generate_series($3::int, $4::int) AS n
     ), identified AS (
       INSERT INTO events (event_id, stream_id, type, schema_version, data)
       SELECT ${uuidOf(`$2 || '-identified-' || n`)}, 'consent-' || $1 || '-' || $2 || '-' || n, 'VisitorIdentified', 1,
              jsonb_build_object('websiteId', $1::text, 'visitorId', $2 || '-' || n, 'source', 'form', 'email', $2 || '.' || n || '@example.com',
                'name', null, 'company', null, 'pageUrl', 'https://www.example.com/contact', 'consentEventId', ${uuidOf(`$2 || '-consent-' || n`)},
                'occurredAt', ${at}, 'receivedAt', ${at})
         FROM generate_series($3::int, $4::int) AS n
     )
     INSERT INTO enrichment_jobs (job_id, source_event_id, website_id, visitor_id, provider, input, next_attempt_at, deadline_at, created_at)
     SELECT ${uuidOf(`$2 || '-job-' || n`)}, ${uuidOf(`$2 || '-identified-' || n`)}, $1::uuid, $2 || '-' || n, 'http',
            jsonb_build_object('email', $2 || '.' || n || '@example.com', 'domain', 'example.com', 'company', null), now(), now() + interval '24 hours', now()
       FROM generate_series($3::int, $4::int) AS n`,
    [websiteId, tag, from, to],
  );
}

/** The provider: our signed contract on loopback, answering `found` to every signed request. */
async function startProvider(): Promise<{ url: string; secret: string; close(): Promise<void> }> {
  const secret = generateWebhookSecret();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (part: Buffer) => chunks.push(part));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        verifyWebhook(secret, request.headers as Record<string, string>, body);
      } catch {
        response.writeHead(401).end();
        return;
      }
      const { id } = JSON.parse(body) as { id: string };
      const answer = JSON.stringify({ details: { name: 'Ada', title: null, company: null, domain: null, industry: null, size: null, linkedinUrl: null, location: null } });
      response.writeHead(200, { 'content-type': 'application/json', ...webhookHeaders(secret, id, answer) }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/enrich`,
    secret,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One run: B's leads arrive while the worker drains; their latencies (ms), queued → enriched. */
async function runB(db: Db, options: FloodOptions, flood: number, say: (line: string) => void): Promise<number[]> {
  await db.query('DELETE FROM enrichment_jobs');
  await db.query('DELETE FROM queue_turns');
  await db.query('DELETE FROM enrichment_rate_limits');
  const siteA = randomUUID();
  const siteB = randomUUID();
  const run = randomUUID().slice(0, 8);
  if (flood > 0) {
    for (let from = 1; from <= flood; from += 10_000) await queueLeads(db, siteA, `a${run}`, from, Math.min(flood, from + 9_999));
    await db.query('ANALYZE enrichment_jobs');
  }
  const provider = await startProvider();
  const queuedAt = new Map<string, number>();
  const latencies: number[] = [];
  const worker = startEnrichmentWorker({
    pool: db,
    workerId: `bench-flood-${run}`,
    provider: createHttpEnrichmentProvider({ url: provider.url, secret: provider.secret }),
    ratePerMinute: options.ratePerMinute,
    concurrency: options.concurrency,
    pollMs: 50,
    onOutcome: (report) => {
      const queued = queuedAt.get(report.jobId);
      if (report.websiteId === siteB && report.outcome === 'enriched' && queued !== undefined) latencies.push(Date.now() - queued);
    },
  });
  try {
    // The flood is under way before B's first lead arrives.
    if (flood > 0) await sleep(2_000);
    for (let n = 1; n <= options.genuineLeads; n++) {
      const before = Date.now();
      await queueLeads(db, siteB, `b${run}`, n, n);
      const { rows } = await db.query<{ job_id: string }>('SELECT job_id FROM enrichment_jobs WHERE website_id = $1 AND visitor_id = $2', [siteB, `b${run}-${n}`]);
      queuedAt.set(rows[0]!.job_id, before);
      await sleep(options.arrivalMs);
    }
    const giveUpAt = Date.now() + 120_000 + ((flood + options.genuineLeads) / options.ratePerMinute) * 60_000;
    while (latencies.length < options.genuineLeads && Date.now() < giveUpAt) await sleep(50);
  } finally {
    await worker.stop();
    await provider.close();
  }
  if (latencies.length < options.genuineLeads) say(`  only ${latencies.length} of B's ${options.genuineLeads} leads were enriched`);
  return latencies;
}

export async function measureEnrichmentUnderFlood(db: Db, options: FloodOptions, say: (line: string) => void): Promise<Verdict[]> {
  say(
    `\nB's leads (${options.genuineLeads}, one every ${options.arrivalMs} ms) at ${formatNumber(options.ratePerMinute)} calls/minute, ` +
      `concurrency ${options.concurrency}: alone, then behind A's ${formatNumber(options.floodJobs)} queued jobs…`,
  );
  const alone = summarise(await runB(db, options, 0, say));
  say(`  alone: p50 ${formatNumber(alone.p50)} ms, max ${formatNumber(alone.max)} ms`);
  const flooded = summarise(await runB(db, options, options.floodJobs, say));
  say(`  behind A's flood: p50 ${formatNumber(flooded.p50)} ms, max ${formatNumber(flooded.max)} ms`);
  const fifoMs = (options.floodJobs / options.ratePerMinute) * 60_000;
  say(`  first in, first out, B's first lead would have waited about ${formatNumber(fifoMs / 1000)} s (A's queue at the provider's rate)`);
  const ratio = flooded.max / Math.max(1, alone.max);
  return [
    { name: "B's enrichment latency p50, flood vs alone", value: `${(flooded.p50 / Math.max(1, alone.p50)).toFixed(2)}×`, target: 'reference', pass: true },
    {
      name: "B's enrichment latency max, flood vs alone",
      value: `${ratio.toFixed(2)}× (${formatNumber(flooded.max)} vs ${formatNumber(alone.max)} ms)`,
      target: `≤ ${options.targetRatio}×`,
      pass: ratio <= options.targetRatio && flooded.count === options.genuineLeads,
    },
  ];
}
