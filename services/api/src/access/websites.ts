// Which websites a viewer sees: an admin every website, an owner their own. Every route that reads or
// changes a website's data finds it through these, so another owner's data is never in reach; a
// website outside them answers 404, as if it did not exist.
import { WebsiteNotFoundError } from '@consentry/events';
import type { Queryable } from '@consentry/infra';
import { listWebsites, type Website } from '@consentry/projections';
import type { Viewer } from './viewer';

export async function visibleWebsites(db: Queryable, viewer: Viewer): Promise<Website[]> {
  if (viewer.adminUsername) return listWebsites(db, null);
  if (viewer.user) return listWebsites(db, viewer.user.id);
  return [];
}

/** The ids of visibleWebsites; null for an admin: every website, also those added later. */
export async function visibleWebsiteIds(db: Queryable, viewer: Viewer): Promise<readonly string[] | null> {
  if (viewer.adminUsername) return null;
  return (await visibleWebsites(db, viewer)).map((website) => website.id);
}

/** One of the viewer's websites; WebsiteNotFoundError (404) for any other. */
export async function visibleWebsite(db: Queryable, viewer: Viewer, websiteId: string): Promise<Website> {
  const website = (await visibleWebsites(db, viewer)).find((candidate) => candidate.id === websiteId);
  if (!website) throw new WebsiteNotFoundError();
  return website;
}

export function canSeeWebsite(websiteIds: readonly string[] | null, websiteId: string): boolean {
  return websiteIds === null || websiteIds.includes(websiteId);
}
