// The inline users, plans and site-content projections: what each event does to the read model, and
// that a replay from the log rebuilds exactly what live application built.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '@consentry/events';
import { exampleEventData } from '@consentry/events/examples';
import { appendToStream, type NewEvent } from '@consentry/infra';
import { createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { plansProjection } from '../plans/projection';
import { getSubscriptionPlan, listSubscriptionPlans } from '../plans/queries';
import { replayProjection } from '../runtime/replay';
import { siteContentProjection } from '../site-content/projection';
import { getSiteContent } from '../site-content/queries';
import { usersProjection } from './projection';
import { findUserByEmail, getUser } from './queries';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('users_projection');
});
afterAll(async () => {
  await db?.drop();
});

const inline = { inlineProjections: [usersProjection, plansProjection, siteContentProjection] };
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();

async function append(streamId: string, events: NewEvent[]) {
  await appendToStream(db.pool, streamId, events, inline);
}

async function table(name: string): Promise<unknown[]> {
  const { rows } = await db.pool.query(`SELECT * FROM ${name} ORDER BY 1`);
  return rows;
}

describe('when a person registers', () => {
  it('is a registered user on the limits the registration recorded', async () => {
    const userId = randomUUID();
    await append(`user-${userId}`, [
      { type: 'UserRegistered', data: { userId, email: 'ada@example.com', firstName: 'Ada', lastName: null, registeredAt: at(0) } },
      {
        type: 'UserSubscriptionChanged',
        data: { userId, subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 1, maxConsentsPerMonth: 10_000, changedAt: at(0) },
      },
    ]);
    expect(await getUser(db.pool, userId)).toEqual({
      id: userId,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: null,
      status: 'registered',
      subscriptionTier: 'free',
      subscriptionStatus: 'active',
      maxWebsites: 1,
      maxConsentsPerMonth: 10_000,
      isActive: true,
      invitedAt: null,
      registeredAt: at(0),
      updatedAt: at(0),
    });
    expect((await findUserByEmail(db.pool, 'ADA@example.com'))?.id).toBe(userId);
  });
});

describe('when an owner renames themselves', () => {
  it('shows the new name, blank parts as null', async () => {
    const userId = randomUUID();
    await append(`user-${userId}`, [
      { type: 'UserRegistered', data: { userId, email: 'cy@example.com', firstName: 'Cy', lastName: 'Old', registeredAt: at(0) } },
      { type: 'UserNameChanged', data: { userId, firstName: 'Cyrus', lastName: null, changedAt: at(5) } },
    ]);
    expect(await getUser(db.pool, userId)).toMatchObject({ firstName: 'Cyrus', lastName: null, updatedAt: at(5) });
  });
});

describe('when an owner confirms a new email', () => {
  it('finds them by the new email only', async () => {
    const userId = randomUUID();
    const [before, after] = [`dee-${userId}@example.com`, `dee.new-${userId}@example.com`];
    await append(`user-${userId}`, [
      { type: 'UserRegistered', data: { userId, email: before, firstName: 'Dee', lastName: null, registeredAt: at(0) } },
      { type: 'UserEmailChanged', data: { userId, email: after, changedAt: at(6) } },
    ]);
    expect(await getUser(db.pool, userId)).toMatchObject({ email: after, updatedAt: at(6) });
    expect((await findUserByEmail(db.pool, after))?.id).toBe(userId);
    expect(await findUserByEmail(db.pool, before)).toBeNull();
  });
});

describe('when an invited person registers', () => {
  it('keeps the invitation’s limits, and follows admins’ changes until deleted', async () => {
    const userId = randomUUID();
    await append(`user-${userId}`, [
      { type: 'UserInvited', data: { userId, email: 'bo@example.com', subscriptionTier: 'pro', maxWebsites: 1, maxConsentsPerMonth: 15, invitedBy: 'admin', invitedAt: at(1) } },
    ]);
    expect(await getUser(db.pool, userId)).toMatchObject({ status: 'invited', subscriptionTier: 'pro', maxConsentsPerMonth: 15, invitedAt: at(1) });
    await append(`user-${userId}`, [
      { type: 'UserRegistered', data: { userId, email: 'bo@example.com', firstName: 'Bo', lastName: 'Lee', registeredAt: at(2) } },
      { type: 'UserActivationChanged', data: { userId, isActive: false, changedAt: at(3) } },
    ]);
    expect(await getUser(db.pool, userId)).toMatchObject({ status: 'registered', subscriptionTier: 'pro', maxWebsites: 1, maxConsentsPerMonth: 15, isActive: false, firstName: 'Bo' });
    await append(`user-${userId}`, [{ type: 'UserDeleted', data: { userId, deletedAt: at(4) } }]);
    expect(await getUser(db.pool, userId)).toBeNull();
  });
});

describe('when plans are published', () => {
  it('keeps the latest definition of each plan, cheapest first', async () => {
    const pro = exampleEventData.SubscriptionPlanPublished;
    await append('plan-pro', [{ type: 'SubscriptionPlanPublished', data: pro }]);
    await append('plan-free', [{ type: 'SubscriptionPlanPublished', data: { ...pro, planId: 'free', displayName: 'Free', priceCents: 0, maxWebsites: 1 } }]);
    await append('plan-pro', [{ type: 'SubscriptionPlanPublished', data: { ...pro, priceCents: 5_900 } }]);
    expect((await listSubscriptionPlans(db.pool)).map((plan) => [plan.id, plan.priceCents])).toEqual([
      ['free', 0],
      ['pro', 5_900],
    ]);
    expect((await getSubscriptionPlan(db.pool, 'pro'))?.features).toEqual(pro.features);
    expect(await getSubscriptionPlan(db.pool, 'business')).toBeNull();
  });
});

describe('the site content', () => {
  it('is the defaults until saved, then the saved content', async () => {
    expect(await getSiteContent(db.pool)).toEqual(defaultSiteContent);
    await append('site-content', [{ type: 'SiteContentChanged', data: { ...defaultSiteContent, heroTitle: 'Hello', changedBy: 'admin', changedAt: at(5) } }]);
    expect(await getSiteContent(db.pool)).toEqual({ ...defaultSiteContent, heroTitle: 'Hello' });
  });
});

describe('when the projections are replayed', () => {
  it('rebuild exactly the read models live application built', async () => {
    const live = [await table('users'), await table('subscription_plans'), await table('site_content')];
    await waitForLogVisible(db.pool);
    for (const projection of [usersProjection, plansProjection, siteContentProjection]) await replayProjection(db.pool, projection);
    expect([await table('users'), await table('subscription_plans'), await table('site_content')]).toEqual(live);
  });
});
