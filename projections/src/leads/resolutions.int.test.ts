// What is billed per resolution (docs/identification.md, "Resolutions"): a person first identified on
// a website in a UTC month, where a person is their normalised email, else the visitor their network
// named. One person identified again and again, from however many visitor ids, counts once; a visitor
// known by their network who then gives their email is that person; the same email on another
// website, or in another month, counts there. Built live in batches of one and of the whole log.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { resetReadModel, checkpointNameOf } from '../projection';
import { leadsProjection } from './projection';
import { countResolutionsInMonth } from './queries';
import { appendLog, at, catchUp, leadVisitor, type LogEntry } from './testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('lead_resolutions', { poolSize: 4 });
});
afterAll(async () => {
  await db?.drop();
});

async function rebuild(batchSize: number): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await resetReadModel(leadsProjection, client);
    await client.query('DELETE FROM checkpoints WHERE name = $1', [checkpointNameOf(leadsProjection)]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  await catchUp(db.pool, leadsProjection, batchSize);
}

describe('when one person is identified many times', () => {
  const site = randomUUID();
  const otherSite = randomUUID();
  const t0 = '2026-04-10T09:00:00.000Z';

  beforeAll(async () => {
    const entries: LogEntry[] = [];
    // The same address sent by 20 visitor ids (a script, or one person's many browsers), each twice.
    for (let n = 0; n < 20; n++) {
      const visitor = leadVisitor(site);
      entries.push(visitor.allow(at(t0, n)), visitor.identify(at(t0, n + 0.5), { email: 'flood@example.com' }));
      entries.push(visitor.identify(at(t0, n + 0.7), { email: 'flood@example.com', name: 'Again' }));
    }
    // Known by her network first, then her form; then the same address from a second browser.
    const eve = leadVisitor(site);
    entries.push(eve.allow(at(t0, 30)), eve.matchCompany(at(t0, 30), { asn: 64500, organisation: 'Eve Corp' }));
    entries.push(eve.identify(at(t0, 31), { email: 'eve@evecorp.example' }));
    const eveAgain = leadVisitor(site);
    entries.push(eveAgain.allow(at(t0, 32)), eveAgain.identify(at(t0, 33), { email: 'eve@evecorp.example' }));
    // Known by the network only: the visitor is the person.
    const net = leadVisitor(site);
    entries.push(net.allow(at(t0, 40)), net.matchCompany(at(t0, 40), { asn: 64501, organisation: 'Net Corp' }));
    // The same address on another website, and on this one next month.
    const elsewhere = leadVisitor(otherSite);
    entries.push(elsewhere.allow(at(t0, 50)), elsewhere.identify(at(t0, 51), { email: 'flood@example.com' }));
    const nextMonth = leadVisitor(site);
    entries.push(nextMonth.allow('2026-05-02T10:00:00.000Z'), nextMonth.identify('2026-05-02T10:01:00.000Z', { email: 'flood@example.com' }));
    await appendLog(db.pool, entries);
  });

  for (const batchSize of [1, 1_000]) {
    it(`counts each person once per website and month (batches of ${batchSize})`, async () => {
      await rebuild(batchSize);
      // April on the site: flood@, Eve (network then email, and her second browser), Net Corp's visitor.
      expect(await countResolutionsInMonth(db.pool, [site], '2026-04-01')).toBe(3);
      expect(await countResolutionsInMonth(db.pool, [otherSite], '2026-04-01')).toBe(1);
      expect(await countResolutionsInMonth(db.pool, [site, otherSite], '2026-04-01')).toBe(4);
      expect(await countResolutionsInMonth(db.pool, [site], '2026-05-01')).toBe(1);
      // Every visitor still has their own row (a lead each); only the bill counts people.
      const { rows } = await db.pool.query<{ visitors: number }>(`SELECT count(*)::int AS visitors FROM lead_resolutions WHERE website_id = $1 AND month = '2026-04-01'`, [site]);
      expect(rows[0]!.visitors).toBe(23);
    });
  }
});
