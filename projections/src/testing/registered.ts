// Websites and their owners registered the way the api registers them (events appended with the
// inline websites, branding and users projections), for the tests and benchmarks of every service.
import { randomBytes, randomUUID } from 'node:crypto';
import { brandingStreamId, userStreamId, type SubscriptionTier, type WebsiteSettingsChangedData } from '@consentry/events';
import { appendToStream, type Db } from '@consentry/infra';
import { brandingProjection } from '../branding/projection';
import { usersProjection } from '../users/projection';
import { websitesProjection } from '../websites/projection';

export interface TestWebsite {
  readonly id: string;
  readonly ownerId: string;
  readonly embedCode: string;
  readonly domain: string;
}

export async function addTestWebsite(
  pool: Db,
  options: {
    /** The owner (see addTestOwner); a new id, with no account, by default. */
    ownerId?: string;
    domain?: string;
    ipAddressMode?: 'full' | 'truncated';
    active?: boolean;
    companyName?: string;
    logoUrl?: string | null;
    /** Other settings, as the owner would change them. */
    settings?: Omit<WebsiteSettingsChangedData, 'websiteId' | 'changedAt'>;
  } = {},
): Promise<TestWebsite> {
  const website = {
    id: randomUUID(),
    ownerId: options.ownerId ?? randomUUID(),
    embedCode: randomBytes(16).toString('base64url'),
    domain: options.domain ?? 'shop.example.test',
  };
  const now = new Date().toISOString();
  const inlineProjections = [websitesProjection, brandingProjection];
  await appendToStream(
    pool,
    `website-${website.id}`,
    [
      { type: 'WebsiteAdded', data: { websiteId: website.id, ownerId: website.ownerId, name: 'Test Shop', domain: website.domain, embedCode: website.embedCode, addedAt: now } },
      ...(options.ipAddressMode
        ? [{ type: 'WebsiteSettingsChanged' as const, data: { websiteId: website.id, ipAddressMode: options.ipAddressMode, changedAt: now } }]
        : []),
      ...(options.settings
        ? [{ type: 'WebsiteSettingsChanged' as const, data: { websiteId: website.id, ...options.settings, changedAt: now } }]
        : []),
      ...(options.active === false
        ? [{ type: 'WebsiteActivationChanged' as const, data: { websiteId: website.id, isActive: false, changedAt: now } }]
        : []),
    ],
    { inlineProjections },
  );
  if (options.companyName) {
    await appendToStream(
      pool,
      brandingStreamId(website.ownerId),
      [
        {
          type: 'BrandingChanged',
          data: { ownerId: website.ownerId, companyName: options.companyName, primaryColor: '#0f766e', logoUrl: options.logoUrl ?? null, changedBy: 'test', changedAt: now },
        },
      ],
      { inlineProjections },
    );
  }
  return website;
}

/** A website owner on a subscription tier, as an admin invites one (users read model included). */
export async function addTestOwner(
  pool: Db,
  options: { tier?: SubscriptionTier; status?: 'active' | 'cancelled' | 'expired' } = {},
): Promise<{ readonly id: string; readonly email: string }> {
  const owner = { id: randomUUID(), email: `owner-${randomBytes(4).toString('hex')}@owners.example.test` };
  const now = new Date().toISOString();
  const tier = options.tier ?? 'free';
  const limits = { maxWebsites: 10, maxConsentsPerMonth: 100_000 };
  await appendToStream(
    pool,
    userStreamId(owner.id),
    [
      { type: 'UserInvited', data: { userId: owner.id, email: owner.email, subscriptionTier: tier, ...limits, invitedBy: 'admin', invitedAt: now } },
      ...(options.status && options.status !== 'active'
        ? [{ type: 'UserSubscriptionChanged' as const, data: { userId: owner.id, subscriptionTier: tier, subscriptionStatus: options.status, ...limits, changedAt: now } }]
        : []),
    ],
    { inlineProjections: [usersProjection] },
  );
  return owner;
}
