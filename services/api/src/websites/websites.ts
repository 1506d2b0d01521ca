// Adding and removing websites through the website decider. The plan's website limit is decided
// from the read model and checked again inside the append's transaction under a per-owner lock, so
// two adds racing for the last free slot cannot both succeed.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  UserNotFoundError,
  WebsiteLimitReachedError,
  WebsiteNotFoundError,
  websiteDecider,
  websiteStreamId,
  type WebsiteActor,
  type WebsiteSettingsChange,
} from '@consentry/events';
import type { Db, DbTransaction, InlineHandler, Queryable, StoredEvent } from '@consentry/infra';
import { getWebsite, type User, type Website } from '@consentry/projections';
import { handleApiCommand } from '../domain/commands';

/** 16 random bytes: unguessable, URL-safe, 22 characters. */
export const generateEmbedCode = () => randomBytes(16).toString('base64url');

export async function countOwnerWebsites(db: Queryable, ownerId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>({
    name: 'count-owner-websites',
    text: 'SELECT count(*)::int8 AS count FROM websites WHERE owner_id = $1',
    values: [ownerId],
  });
  return rows[0]?.count ?? 0;
}

/**
 * Runs in the append's transaction before the websites projection: waits for any other add of the
 * same owner (a transaction-scoped advisory lock), then counts again with what has committed.
 */
export const websiteLimitGuard: InlineHandler = {
  name: 'website-limit-guard',
  canHandle: ['WebsiteAdded'],
  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type !== 'WebsiteAdded') continue;
      const ownerId = event.data.ownerId;
      await tx.query({ name: 'lock-owner-websites', text: "SELECT pg_advisory_xact_lock(hashtextextended('website-limit:' || $1, 0))", values: [ownerId] });
      const { rows } = await tx.query<{ max_websites: number; is_active: boolean }>({
        name: 'owner-website-limit',
        text: 'SELECT max_websites, is_active FROM users WHERE id = $1',
        values: [ownerId],
      });
      const owner = rows[0];
      if (!owner || !owner.is_active) throw new UserNotFoundError();
      if ((await countOwnerWebsites(tx, ownerId)) >= owner.max_websites) throw new WebsiteLimitReachedError();
    }
  },
};

export interface NewWebsite {
  readonly name: string;
  readonly domain: string;
}

/** Adds a website to the owner's account, within their plan; `addedBy` is who did it (the owner's id, or an admin's username). */
export async function addWebsite(pool: Db, owner: User, website: NewWebsite, addedBy: string = owner.id): Promise<Website> {
  const websiteId = randomUUID();
  await handleApiCommand(
    pool,
    websiteStreamId(websiteId),
    websiteDecider,
    {
      type: 'AddWebsite',
      data: {
        websiteId,
        ownerId: owner.id,
        name: website.name,
        domain: website.domain,
        embedCode: generateEmbedCode(),
        ownerWebsiteCount: await countOwnerWebsites(pool, owner.id),
        maxWebsites: owner.maxWebsites,
      },
      metadata: { now: new Date().toISOString() },
    },
    { hooks: [websiteLimitGuard], metadata: { actor: addedBy } },
  );
  const added = await getWebsite(pool, websiteId);
  if (!added) throw new Error(`Website ${websiteId} was added but is not in the read model`);
  return added;
}

/** Changes a website's settings; an owner asking for another owner's website gets WebsiteNotFoundError. */
export async function changeWebsiteSettings(pool: Db, websiteId: string, actor: WebsiteActor, settings: WebsiteSettingsChange): Promise<Website> {
  await handleApiCommand(
    pool,
    websiteStreamId(websiteId),
    websiteDecider,
    { type: 'ChangeWebsiteSettings', data: { websiteId, actor, settings }, metadata: { now: new Date().toISOString() } },
    { metadata: { actor: actorName(actor) } },
  );
  const website = await getWebsite(pool, websiteId);
  if (!website) throw new WebsiteNotFoundError();
  return website;
}

/** Removes a website; an owner asking for another owner's website gets WebsiteNotFoundError. */
export async function removeWebsite(pool: Db, websiteId: string, actor: WebsiteActor): Promise<void> {
  await handleApiCommand(
    pool,
    websiteStreamId(websiteId),
    websiteDecider,
    { type: 'RemoveWebsite', data: { websiteId, actor }, metadata: { now: new Date().toISOString() } },
    { metadata: { actor: actorName(actor) } },
  );
}

const actorName = (actor: WebsiteActor) => (actor.kind === 'owner' ? actor.userId : actor.username);
