// Answer shapes shared by several routes, as zod schemas: they validate what the api sends and
// describe it in the OpenAPI document (/api/docs).
import { subscriptionStatus, subscriptionTier } from '@consentry/events';
import type { User, Website } from '@consentry/projections';
import { z } from 'zod';
import { errorAnswer } from './errors';

export { errorAnswer };

/** Error answers by status, for a route's `response` map. */
export function errorsFor<const TStatus extends number>(...statuses: TStatus[]): Record<TStatus, typeof errorAnswer> {
  const answers: Partial<Record<TStatus, typeof errorAnswer>> = {};
  for (const status of statuses) answers[status] = errorAnswer;
  return answers as Record<TStatus, typeof errorAnswer>;
}

/** A resource id in the path. */
/**
 * Every id a caller sends (path, query, body). UUIDs are case-insensitive, but ids are compared as
 * strings in places (scopes, maps of websites, event data): the edge lower-cases them, so
 * `0B7A…` and `0b7a…` are the same website everywhere behind it.
 */
export const uuidParam = z
  .uuid({ error: 'Expected a UUID' })
  .transform((id) => id.toLowerCase())
  .meta({ description: 'A UUID, in any letter case' });

export const userAnswer = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    subscriptionTier,
    subscriptionStatus,
    maxWebsites: z.int(),
    maxConsentsPerMonth: z.int(),
    isActive: z.boolean(),
  })
  .meta({ id: 'User', description: 'A website owner account' });

export function toUserAnswer(user: User): z.infer<typeof userAnswer> {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: null,
    subscriptionTier: user.subscriptionTier,
    subscriptionStatus: user.subscriptionStatus,
    maxWebsites: user.maxWebsites,
    maxConsentsPerMonth: user.maxConsentsPerMonth,
    isActive: user.isActive,
  };
}

export const websiteAnswer = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string(),
    isActive: z.boolean(),
    embedCode: z.string(),
    createdAt: z.iso.datetime(),
    owner: z
      .object({ id: z.uuid(), email: z.string(), name: z.string().nullable().meta({ description: 'First and last name, or null when the owner gave none' }) })
      .nullable()
      .optional()
      .meta({ description: "Whose website it is: only in an admin's list (null when that account no longer exists)" }),
  })
  .meta({ id: 'Website', description: 'A website of an owner (spec section 3)' });

export function toWebsiteAnswer(website: Website): z.infer<typeof websiteAnswer> {
  return {
    id: website.id,
    name: website.name,
    domain: website.domain,
    isActive: website.isActive,
    embedCode: website.embedCode,
    createdAt: website.createdAt,
  };
}

export const noContent = z.null().meta({ description: 'No content' });
