// The compliance jobs on a real database, end to end through the real projections: a retention
// purge keeps totals (live and after a replay) while the personal data goes; an erasure leaves no
// trace of a visitor's IP address, user agent or email in any table; the ledger still verifies
// after both; a receipt's proof checks out with the standalone script and a changed one does not.
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentStreamId } from '@consentry/events';
import { createGroupCommitAppender, sealAll, signerFromPrivateKey, timestampLatestSeal, verifyLedger, type GroupAppendRequest } from '@consentry/infra';
import { consentEvent, createTestDatabase, startTestTimeStampingAuthority, tablesHolding, type TestDatabase } from '@consentry/infra/testing';
import {
  analyticsProjection,
  analyticsTables,
  consentDimensionsProjection,
  consentRecordsProjection,
  consentStatsProjection,
  getWebsite,
  replayProjection,
  type Website,
} from '@consentry/projections';
import { addWebsiteAs, buildTestApi, registerOwner, type SignedInUser, type TestApi } from '@consentry/api/testing';
import { purgeWebsite, retentionCutoff, runsOf } from '@consentry/jobs';
import { eraseSubject, exportSubject } from '@consentry/jobs';
import { catchUpProjections } from '@consentry/jobs/testing';

const run = promisify(execFile);
const verifyScript = fileURLToPath(new URL('../../services/server/scripts/verify-receipt.mjs', import.meta.url));
const signer = signerFromPrivateKey(generateKeyPairSync('ed25519').privateKey);
const day = 86_400_000;
const today = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()));
/** The purge runs "14 months from now" with 12 months' retention: today's inserts are old enough to go. */
const purgeNow = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 14, today.getUTCDate()));
const cutoff = retentionCutoff(purgeNow, 12);
const oldDay = (n: number) => new Date(today.getTime() - n * day + 3_600_000).toISOString();
const keptDay = (n: number) => new Date(cutoff.getTime() + n * day + 3_600_000).toISOString();

let db: TestDatabase;
let api: TestApi;
let owner: SignedInUser;

/** A new owner (the free plan allows one website) with one website. */
async function ownerWithWebsite(name: string): Promise<{ owner: SignedInUser; website: { id: string } }> {
  const client = await registerOwner(api.app);
  return { owner: client, website: await addWebsiteAs(client, name) };
}

beforeAll(async () => {
  db = await createTestDatabase('compliance', { poolSize: 8 });
  api = await buildTestApi(db.pool, { sealKey: signer });
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

async function append(requests: readonly GroupAppendRequest[]): Promise<void> {
  const appender = createGroupCommitAppender(db.pool, { maxBatchSize: 200 });
  await Promise.all(requests.map((request) => appender.append(request)));
  await appender.close();
}

function consent(websiteId: string, receivedAt: string, n: number, overrides: Record<string, unknown> = {}): GroupAppendRequest {
  const visitorId = (overrides.visitorId as string | undefined) ?? randomUUID();
  const event = consentEvent({ websiteId, receivedAt, visitorId, choice: n % 3 === 0 ? 'declined' : 'accepted' });
  return { streamId: consentStreamId(websiteId, visitorId), event: { ...event, data: { ...event.data, deviceClass: n % 2 ? 'mobile' : 'desktop', ...overrides } } as typeof event };
}

function impression(websiteId: string, receivedAt: string): GroupAppendRequest {
  return {
    streamId: `banner-${websiteId}`,
    event: { type: 'BannerShown', eventId: randomUUID(), data: { websiteId, position: 'bottom', theme: 'light', deviceClass: 'mobile', receivedAt } },
  };
}

function pageview(websiteId: string, visitorId: string, receivedAt: string): GroupAppendRequest {
  return {
    streamId: `visits-${websiteId}-${visitorId}`,
    event: {
      type: 'PageViewed',
      eventId: randomUUID(),
      data: { websiteId, visitorId, pageviewId: randomUUID(), url: 'https://shop.example.com/menu', path: '/menu', referrer: null, title: 'Menu', deviceClass: 'mobile', country: 'DE', receivedAt },
    },
  };
}

async function websiteOf(id: string): Promise<Website> {
  const website = await getWebsite(db.pool, id);
  if (!website) throw new Error(`website ${id} missing`);
  return website;
}

const lines = async (sql: string, values: unknown[] = []) => (await db.pool.query<{ line: string }>(sql, values)).rows.map((row) => row.line);
const analyticsOf = async (websiteId: string) => {
  const tables: Record<string, string[]> = {};
  for (const table of analyticsTables) {
    tables[table] = await lines(`SELECT t::text AS line FROM ${table} AS t WHERE website_id = $1 ORDER BY 1`, [websiteId]);
  }
  return tables;
};
const statsOf = (websiteId: string) => lines(`SELECT concat_ws(' ', day, accepted, declined) AS line FROM consent_stats_daily WHERE website_id = $1 ORDER BY day`, [websiteId]);
const dimensionsOf = (websiteId: string) =>
  lines(
    `SELECT concat_ws(' ', 'c', day, device_class, source, accepted, declined) AS line FROM consent_dimensions_daily WHERE website_id = $1
     UNION ALL SELECT concat_ws(' ', 'i', day, position, theme, device_class, impressions) FROM banner_impressions_daily WHERE website_id = $1 ORDER BY 1`,
    [websiteId],
  );

describe('a retention purge', () => {
  it('removes old events from the log and the read models, keeps totals live and after a replay, and the ledger still verifies', async () => {
    const { owner, website: shop } = await ownerWithWebsite('Purged shop');
    const { website: other } = await ownerWithWebsite('Other shop');
    expect((await owner.request({ method: 'PATCH', url: `/api/websites/${shop.id}/settings`, payload: { retentionMonths: 12 } })).statusCode).toBe(200);
    const visitor = randomUUID();
    await append([
      ...Array.from({ length: 300 }, (_, n) => consent(shop.id, oldDay(n % 5), n)),
      ...Array.from({ length: 40 }, (_, n) => impression(shop.id, oldDay(n % 3))),
      ...Array.from({ length: 20 }, (_, n) => pageview(shop.id, visitor, oldDay(n % 2))),
      ...Array.from({ length: 60 }, (_, n) => consent(shop.id, keptDay(1 + (n % 3)), n)),
      ...Array.from({ length: 10 }, () => impression(shop.id, keptDay(1))),
      ...Array.from({ length: 50 }, (_, n) => consent(other.id, oldDay(n % 5), n)),
    ]);
    await catchUpProjections(db.pool);
    const stats = await statsOf(shop.id);
    const dimensions = await dimensionsOf(shop.id);
    const otherStats = await statsOf(other.id);
    expect(stats.length).toBe(8);
    const { rows: analyticsBefore } = await db.pool.query('SELECT count(*)::int8 AS n FROM analytics_daily WHERE website_id = $1 AND day < $2', [shop.id, cutoff]);
    expect(analyticsBefore[0].n).toBeGreaterThan(0);

    const dryRun = await purgeWebsite(db.pool, signer, await websiteOf(shop.id), { now: purgeNow, dryRun: true });
    expect(dryRun).toMatchObject({ removed: 360, byType: { ConsentGiven: 200, ConsentDeclined: 100, BannerShown: 40, PageViewed: 20 }, batches: 0 });
    expect(await lines(`SELECT count(*)::text AS line FROM events WHERE data->>'websiteId' = $1 AND stream_id LIKE ANY(ARRAY['consent-%', 'visits-%', 'banner-%'])`, [shop.id])).toEqual(['430']);

    const summary = await purgeWebsite(db.pool, signer, await websiteOf(shop.id), { now: purgeNow, batchSize: 70 });
    expect(summary).toMatchObject({ removed: 360, batches: 6, cutoff: cutoff.toISOString() });

    // The log: old visitor data gone, newer data and other websites untouched, one summary per batch.
    const remaining = await lines(
      `SELECT concat_ws(' ', type, count(*)) AS line FROM events WHERE data->>'websiteId' = $1 AND type <> 'EventsPurged' GROUP BY type ORDER BY type`,
      [shop.id],
    );
    expect(remaining).toEqual(['BannerShown 10', 'ConsentDeclined 20', 'ConsentGiven 40', 'WebsiteAdded 1', 'WebsiteSettingsChanged 1']);
    expect(await lines(`SELECT count(*)::text AS line FROM events WHERE data->>'websiteId' = $1 AND (data->>'receivedAt')::timestamptz < $2`, [shop.id, cutoff])).toEqual(['0']);
    expect(await lines(`SELECT count(*)::text AS line FROM events WHERE data->>'websiteId' = $1 AND type = 'ConsentGiven'`, [other.id])).toEqual(['33']);
    expect(await lines(`SELECT sum((data->>'removedEvents')::int)::text AS line FROM events WHERE type = 'EventsPurged'`)).toEqual(['360']);

    // The read models: records gone, totals unchanged — before and after the projectors see the summaries.
    expect(await lines('SELECT count(*)::text AS line FROM consent_records WHERE website_id = $1', [shop.id])).toEqual(['60']);
    expect(await statsOf(shop.id)).toEqual(stats);
    await catchUpProjections(db.pool);
    expect(await statsOf(shop.id)).toEqual(stats);
    expect(await dimensionsOf(shop.id)).toEqual(dimensions);
    expect(await statsOf(other.id)).toEqual(otherStats);
    const { rows: analyticsAfter } = await db.pool.query('SELECT count(*)::int8 AS n FROM analytics_daily WHERE website_id = $1 AND day < $2', [shop.id, cutoff]);
    expect(analyticsAfter[0].n).toBe(0);
    // Every other read model is what a replay of the remaining log builds.
    const analytics = await analyticsOf(shop.id);
    const records = await lines(`SELECT event_id::text AS line FROM consent_records WHERE website_id = $1 ORDER BY 1`, [shop.id]);
    await replayProjection(db.pool, analyticsProjection);
    await replayProjection(db.pool, consentRecordsProjection);
    expect(await analyticsOf(shop.id)).toEqual(analytics);
    expect(await lines(`SELECT event_id::text AS line FROM consent_records WHERE website_id = $1 ORDER BY 1`, [shop.id])).toEqual(records);

    // A full replay, without the removed events, reaches the same totals from the summaries.
    await replayProjection(db.pool, consentStatsProjection);
    await replayProjection(db.pool, consentDimensionsProjection);
    expect(await statsOf(shop.id)).toEqual(stats);
    expect(await dimensionsOf(shop.id)).toEqual(dimensions);

    const report = await verifyLedger(db.pool, { publicKey: signer.publicKey });
    expect(report.findings).toEqual([]);
    expect(report.purged).toBe(360);
  });
});

describe('an erasure', () => {
  it('leaves no IP address, user agent or email of the visitor in any table, keeps their choices, and the ledger verifies', async () => {
    const { website: shop } = await ownerWithWebsite('Erasure shop');
    const visitorId = randomUUID();
    const personal = { ipAddress: '198.51.100.23', userAgent: 'UniqueAgent/7.1 (erasure test)', email: 'erase.me@example.org', city: 'Springfield', visitorId };
    await append([
      consent(shop.id, oldDay(2), 1, personal),
      consent(shop.id, oldDay(1), 3, personal),
      pageview(shop.id, visitorId, oldDay(1)),
      ...Array.from({ length: 5 }, (_, n) => consent(shop.id, oldDay(1), n)),
    ]);
    await catchUpProjections(db.pool);
    await sealAll(db.pool, signer);
    for (const needle of [personal.ipAddress, personal.userAgent, personal.email]) {
      expect(Object.keys(await tablesHolding(db.pool, needle)).sort()).toEqual(['consent_records', 'events']);
    }
    const exported = await exportSubject(db.pool, await websiteOf(shop.id), { ip: personal.ipAddress });
    expect(exported.subject.visitorIds).toEqual([visitorId]);
    expect(exported.events.map((event) => event.type).sort()).toEqual(['ConsentDeclined', 'ConsentGiven', 'PageViewed']);
    expect(exported.readModels.consentRecords).toHaveLength(2);
    expect(exported.readModels.consentRecords[0]).toMatchObject({ ip_address: personal.ipAddress, email: personal.email });

    const summary = await eraseSubject(db.pool, signer, await websiteOf(shop.id), { ip: personal.ipAddress });
    // The two choices and the page view (its address and title).
    expect(summary).toMatchObject({ visitorIds: [visitorId], events: 3, rewritten: 3 });
    await catchUpProjections(db.pool);

    for (const needle of [personal.ipAddress, personal.userAgent, personal.email]) {
      expect(await tablesHolding(db.pool, needle), needle).toEqual({});
    }
    // The choice history remains, in the log and in the records.
    expect(await lines(`SELECT choice AS line FROM consent_records WHERE visitor_id = $1 ORDER BY received_at`, [visitorId])).toEqual(['accepted', 'declined']);
    expect(await lines(`SELECT type AS line FROM events WHERE stream_id = $1 ORDER BY position`, [consentStreamId(shop.id, visitorId)])).toEqual(['ConsentGiven', 'ConsentDeclined']);
    // Other visitors keep their data.
    expect(await lines(`SELECT count(*)::text AS line FROM consent_records WHERE website_id = $1 AND ip_address IS NOT NULL`, [shop.id])).toEqual(['5']);

    const report = await verifyLedger(db.pool, { publicKey: signer.publicKey });
    expect(report.findings).toEqual([]);
    expect(report.erased).toBe(3);
    await sealAll(db.pool, signer);
    expect((await verifyLedger(db.pool, { publicKey: signer.publicKey })).ok).toBe(true);
  });
});

describe('an erasure of the pages a visitor was on', () => {
  it('removes the consent page address and the page views’ addresses, referrers and titles from the log and every read model; counts stay, after a replay too', async () => {
    const { website: shop } = await ownerWithWebsite('Pages shop');
    const visitorId = randomUUID();
    // What a visitor typed, carried in query strings, a fragment and a title (stored by ingest before it stripped queries).
    const typed = `typed.${visitorId.slice(0, 8)}@example.org`;
    const granted = consent(shop.id, oldDay(1), 1, {
      visitorId,
      pageUrl: `https://shop.example.com/signup?email=${typed}`,
      offered: ['preferences', 'analytics', 'marketing', 'identification'],
      purposes: { preferences: true, analytics: true, marketing: true, identification: true },
      method: 'accept_all',
    });
    const viewed = (url: string, path: string, referrer: string | null, title: string | null, receivedAt: string): GroupAppendRequest => {
      const request = pageview(shop.id, visitorId, receivedAt);
      return { ...request, event: { ...request.event, data: { ...request.event.data, url, path, referrer, title } } as typeof request.event };
    };
    await append([granted]);
    await append([
      viewed(`https://shop.example.com/welcome?email=${typed}#${typed}`, '/welcome', `https://mail.example.net/inbox?to=${typed}`, `Welcome ${typed}`, oldDay(1)),
      // A second visit, referred by the site itself: a replay must still count it as direct.
      viewed('https://shop.example.com/plans', '/plans', `https://shop.example.com/welcome?email=${typed}`, null, new Date(Date.parse(oldDay(1)) + 3 * 3_600_000).toISOString()),
    ]);
    await catchUpProjections(db.pool);
    await sealAll(db.pool, signer);
    expect(Object.keys(await tablesHolding(db.pool, typed)).sort()).toEqual(['consent_records', 'events', 'lead_timeline']);
    const analytics = await analyticsOf(shop.id);
    expect(analytics.analytics_referrers!.join()).toContain('mail.example.net');

    const summary = await eraseSubject(db.pool, signer, await websiteOf(shop.id), { visitorId });
    expect(summary).toMatchObject({ visitorIds: [visitorId], events: 3, rewritten: 3 });
    await catchUpProjections(db.pool);
    expect(await tablesHolding(db.pool, typed)).toEqual({});
    expect(await tablesHolding(db.pool, '/inbox')).toEqual({});
    const { rows: views } = await db.pool.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM events WHERE stream_id = $1 ORDER BY position`, [`visits-${shop.id}-${visitorId}`]);
    // What stays: the origins (what referrers are counted by) and the paths (what top pages count).
    expect(views.map((row) => row.data)).toEqual([
      expect.objectContaining({ url: 'https://shop.example.com', path: '/welcome', referrer: 'https://mail.example.net', title: null }),
      expect.objectContaining({ url: 'https://shop.example.com', path: '/plans', referrer: 'https://shop.example.com', title: null }),
    ]);
    expect(await lines(`SELECT coalesce(page_url, 'null') AS line FROM consent_records WHERE visitor_id = $1`, [visitorId])).toEqual(['null']);
    expect(await analyticsOf(shop.id)).toEqual(analytics);
    await replayProjection(db.pool, analyticsProjection);
    expect(await analyticsOf(shop.id)).toEqual(analytics);
    // A second erasure finds nothing left to rewrite.
    expect(await eraseSubject(db.pool, signer, await websiteOf(shop.id), { visitorId })).toMatchObject({ rewritten: 0 });
    expect((await verifyLedger(db.pool, { publicKey: signer.publicKey })).findings).toEqual([]);
  });
});

describe('an erasure of an identified visitor', () => {
  it('removes what identified them from the log, the leads, the enrichment queue and the webhook log; the ledger verifies', async () => {
    const { website: shop } = await ownerWithWebsite('Identified shop');
    const visitorId = randomUUID();
    const email = `erase.lead.${visitorId.slice(0, 8)}@example.org`;
    const organisation = `Unique Erasure Works ${visitorId.slice(0, 8)}`;
    const granted = consent(shop.id, oldDay(1), 1, {
      visitorId,
      offered: ['preferences', 'analytics', 'marketing', 'identification'],
      purposes: { preferences: true, analytics: true, marketing: true, identification: true },
      method: 'accept_all',
    });
    const streamId = consentStreamId(shop.id, visitorId);
    const identified = { type: 'VisitorIdentified', eventId: randomUUID(), data: {
      websiteId: shop.id, visitorId, source: 'form', email, name: 'Erase Me', company: organisation, pageUrl: 'https://shop.example.com/contact',
      consentEventId: granted.event.eventId, occurredAt: oldDay(1), receivedAt: oldDay(1) } };
    const enriched = { type: 'LeadEnriched', eventId: randomUUID(), data: {
      websiteId: shop.id, visitorId, enrichmentId: randomUUID(), provider: 'http',
      details: { name: 'Erase Me', title: 'Chief Tester', company: organisation, domain: 'example.org', industry: null, size: null, linkedinUrl: null, location: null },
      enrichedAt: oldDay(1) } };
    const matched = { type: 'CompanyMatched', eventId: randomUUID(), data: {
      websiteId: shop.id, visitorId, asn: 64_512, organisation, consentEventId: granted.event.eventId, matchedAt: oldDay(1) } };
    await append([granted]);
    await append([{ streamId, event: identified }, { streamId, event: matched }, { streamId, event: enriched }] as GroupAppendRequest[]);
    await db.pool.query(
      `INSERT INTO webhook_deliveries (delivery_id, endpoint_id, website_id, visitor_id, source_event_id, message_id, event_type, payload, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 'msg_erasure', 'lead.identified', $6, now(), now())`,
      [randomUUID(), randomUUID(), shop.id, visitorId, identified.eventId, JSON.stringify({ type: 'lead.identified', data: { email } })],
    );
    await db.pool.query(
      `INSERT INTO enrichment_jobs (job_id, source_event_id, website_id, visitor_id, provider, input, next_attempt_at, deadline_at, created_at)
       VALUES ($1, $2, $3, $4, 'default', $5, now() + interval '1 hour', now() + interval '1 day', now())`,
      [randomUUID(), randomUUID(), shop.id, visitorId, JSON.stringify({ email, domain: 'example.org', company: organisation })],
    );
    await catchUpProjections(db.pool);
    await sealAll(db.pool, signer);
    expect(Object.keys(await tablesHolding(db.pool, email))).toEqual(expect.arrayContaining(['events', 'webhook_deliveries', 'enrichment_jobs']));

    const exported = await exportSubject(db.pool, await websiteOf(shop.id), { visitorId });
    expect(exported.events.map((event) => event.type)).toEqual(['ConsentGiven', 'VisitorIdentified', 'CompanyMatched', 'LeadEnriched']);
    expect(JSON.stringify(exported.readModels.webhookDeliveries)).toContain(email);
    expect(JSON.stringify(exported.readModels.enrichmentJobs)).toContain(email);

    const summary = await eraseSubject(db.pool, signer, await websiteOf(shop.id), { visitorId });
    expect(summary).toMatchObject({ visitorIds: [visitorId], events: 4, rewritten: 4 });
    await catchUpProjections(db.pool);
    for (const needle of [email, organisation, 'Chief Tester']) {
      expect(await tablesHolding(db.pool, needle), needle).toEqual({});
    }
    const { rows: stored } = await db.pool.query<{ type: string; data: Record<string, unknown> }>(
      'SELECT type, data FROM events WHERE stream_id = $1 ORDER BY position', [streamId]);
    expect(stored.map((row) => row.type)).toEqual(['ConsentGiven', 'VisitorIdentified', 'CompanyMatched', 'LeadEnriched']);
    expect(stored[1]!.data).toMatchObject({ email: null, name: null, company: null, pageUrl: null, source: 'form' });
    expect(stored[2]!.data).toMatchObject({ asn: null, organisation: null });
    expect(stored[3]!.data).toMatchObject({ details: null, provider: 'http' });
    // The reactor queued one job per identification and company match; with the one added by hand, all are called off.
    expect(await lines(`SELECT status AS line FROM enrichment_jobs WHERE visitor_id = $1`, [visitorId])).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(await lines(`SELECT status AS line FROM webhook_deliveries WHERE visitor_id = $1`, [visitorId])).toEqual(['failed']);

    expect((await verifyLedger(db.pool, { publicKey: signer.publicKey })).findings).toEqual([]);
  });
});

describe('a consent receipt', () => {
  it('proves the consent offline with the standalone script; a changed receipt fails', async () => {
    let shopId: string;
    ({ owner, website: { id: shopId } } = await ownerWithWebsite('Receipt shop'));
    const shop = { id: shopId };
    const request = consent(shop.id, new Date().toISOString(), 1);
    await append([request, ...Array.from({ length: 30 }, (_, n) => consent(shop.id, new Date().toISOString(), n))]);
    const url = `/api/consents/${request.event.eventId}/receipt`;
    const pending = await owner.request({ method: 'GET', url });
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({ proofStatus: 'pending-seal', proof: null });

    await sealAll(db.pool, signer);
    const response = await owner.request({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    const receipt = response.json();
    expect(receipt).toMatchObject({
      consentReceiptId: request.event.eventId,
      controller: { name: 'Receipt shop', contactEmail: owner.email, website: 'https://shop.example.com' },
      consent: { choice: 'accepted', source: 'banner' },
      notice: { policyVersion: '1', heading: 'Receipt shop uses cookies', buttons: ['Decline', 'Accept All'] },
      proofStatus: 'sealed',
      verification: { publicKeyUrl: 'http://consentry.test/.well-known/consentry/seal-key', keyId: signer.keyId },
    });

    const keyResponse = await api.app.inject({ method: 'GET', url: '/.well-known/consentry/seal-key' });
    expect(keyResponse.json()).toEqual({ algorithm: 'Ed25519', keyId: signer.keyId, publicKey: signer.publicKeyPem });
    const dir = await mkdtemp(path.join(tmpdir(), 'receipt-'));
    const keyFile = path.join(dir, 'seal-key.pem');
    await writeFile(keyFile, keyResponse.json().publicKey);
    const check = async (document: unknown) => {
      const file = path.join(dir, `${randomUUID()}.json`);
      await writeFile(file, JSON.stringify(document));
      return run(process.execPath, [verifyScript, file, keyFile]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    };
    expect(await check(receipt)).toEqual({ code: 0, stdout: expect.stringContaining('VALID: the consent is in the ledger') });
    const flipped = structuredClone(receipt);
    flipped.consent.choice = 'declined';
    expect(await check(flipped)).toMatchObject({ code: 1, stdout: expect.stringContaining('NOT VALID') });
    const forged = structuredClone(receipt);
    forged.event.type = 'ConsentDeclined';
    forged.consent.choice = 'declined';
    expect(await check(forged)).toMatchObject({ code: 1, stdout: expect.stringContaining('does not match the sealed digest') });
    const resealed = structuredClone(receipt);
    resealed.proof.seal.sealedAt = new Date().toISOString();
    expect(await check(resealed)).toMatchObject({ code: 1, stdout: expect.stringContaining('seal’s hash does not match') });
    const otherKeyFile = path.join(dir, 'other.pem');
    await writeFile(otherKeyFile, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const file = path.join(dir, 'receipt.json');
    await writeFile(file, JSON.stringify(receipt));
    await expect(run(process.execPath, [verifyScript, file, otherKeyFile])).rejects.toMatchObject({ code: 1 });

    // Only the website's owner may read it.
    const stranger = await registerOwner(api.app);
    expect((await stranger.request({ method: 'GET', url })).statusCode).toBe(404);
    expect((await api.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await owner.request({ method: 'GET', url: `/api/consents/${randomUUID()}/receipt` })).statusCode).toBe(404);
    expect((await owner.request({ method: 'GET', url: '/api/consents/not-an-id/receipt' })).statusCode).toBe(400);
  });
});

describe('a time-stamped consent receipt', () => {
  it('carries the token that dates its seal and the chain up to it; the script checks the chain, OpenSSL the token', { timeout: 60_000 }, async () => {
    const tsa = await startTestTimeStampingAuthority();
    try {
      const { owner: stamped, website } = await ownerWithWebsite('Stamped shop');
      const request = consent(website.id, new Date().toISOString(), 1);
      await append([request]);
      await sealAll(db.pool, signer);
      const url = `/api/consents/${request.event.eventId}/receipt`;
      expect((await stamped.request({ method: 'GET', url })).json()).toMatchObject({ proofStatus: 'sealed', timestamp: null });
      // Two more seals after the consent's, then the head is dated.
      for (const n of [2, 3]) {
        await append([consent(website.id, new Date().toISOString(), n)]);
        await sealAll(db.pool, signer);
      }
      const token = (await timestampLatestSeal(db.pool, tsa.url))!;
      const receipt = (await stamped.request({ method: 'GET', url })).json();
      expect(receipt.timestamp.token).toEqual(token);
      expect(receipt.timestamp.chain.map((seal: { sequence: number }) => seal.sequence)).toEqual([receipt.proof.seal.sequence + 1, receipt.proof.seal.sequence + 2]);

      const dir = await mkdtemp(path.join(tmpdir(), 'stamped-receipt-'));
      const keyFile = path.join(dir, 'seal-key.pem');
      await writeFile(keyFile, signer.publicKeyPem);
      const check = async (document: unknown) => {
        const file = path.join(dir, `${randomUUID()}.json`);
        await writeFile(file, JSON.stringify(document));
        return run(process.execPath, [verifyScript, file, keyFile]).then(
          ({ stdout }) => ({ code: 0, stdout }),
          (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
        );
      };
      expect(await check(receipt)).toEqual({ code: 0, stdout: expect.stringContaining(`TIME-STAMPED: seal ${token.sequence} (and so the consent's seal ${receipt.proof.seal.sequence}) is time-stamped ${token.genTime}`) });
      const broken = structuredClone(receipt);
      broken.timestamp.chain[0].sealedAt = new Date(0).toISOString();
      expect(await check(broken)).toMatchObject({ code: 1, stdout: expect.stringContaining('of the time-stamp chain does not hash to its fields') });

      // The token itself, as docs/compliance.md says: OpenSSL against the authority's CA.
      const tokenFile = path.join(dir, 'token.der');
      await writeFile(tokenFile, Buffer.from(token.token, 'base64'));
      const verified = await run('openssl', ['ts', '-verify', '-token_in', '-in', tokenFile, '-digest', token.sealHash, '-CAfile', tsa.caFile]);
      expect(verified.stdout).toContain('Verification: OK');
      await expect(run('openssl', ['ts', '-verify', '-token_in', '-in', tokenFile, '-digest', receipt.proof.seal.sealHash, '-CAfile', tsa.caFile])).rejects.toBeDefined();
    } finally {
      await tsa.close();
    }
  });
});

describe('runsOf and retentionCutoff', () => {
  it('writes positions as inclusive runs', () => {
    expect(runsOf([5, 1, 2, 3, 9, 10, 12])).toEqual([[1, 3], [5, 5], [9, 10], [12, 12]]);
  });

  it('cuts at the start of the UTC day, whole calendar months back', () => {
    expect(retentionCutoff(new Date('2026-11-21T15:30:00Z'), 24).toISOString()).toBe('2024-11-21T00:00:00.000Z');
    expect(retentionCutoff(new Date('2026-03-31T01:00:00Z'), 1).toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });
});
