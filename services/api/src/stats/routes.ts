// Consent statistics and records over the viewer's websites (an admin's: every website), from the
// consent-stats and consent-records read models, and the owner's plan usage.
import type { Db } from '@consentry/infra';
import type { FastifyRequest } from 'fastify';
import { consentMethods, consentRule, consentMethod, optionalPurpose, planDataType, WebsiteNotFoundError, type ConsentMethod } from '@consentry/events';
import {
  countResolutionsInMonth,
  getConsentStats,
  getConsentStatsByWebsite,
  getDailyConsentCounts,
  getPurposeSummary,
  getSubscriptionPlan,
  listConsentRecords,
  listWebsites,
} from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInOwner, signedInViewer, visibleWebsites } from '../access';
import { errorsFor, uuidParam } from '../schemas';
import { resolutionTermsOf } from '../plans/routes';

const consentStatsAnswer = z
  .object({ totalConsents: z.int(), declinedConsents: z.int(), consentRate: z.number().meta({ description: 'Accepted share in percent' }) })
  .meta({ id: 'ConsentStats' });

const websiteStatsAnswer = z.array(
  z.object({
    website: z.object({ id: z.uuid(), domain: z.string(), name: z.string() }),
    totalConsents: z.int(),
    consentRate: z.number(),
  }),
);

const dailyQuery = z.object({ days: z.coerce.number().int().min(1).max(366).default(30) });
const dailyAnswer = z.array(z.object({ date: z.iso.date(), accepted: z.int(), declined: z.int() }));

const consentsQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50) });
const consentRecordAnswer = z
  .object({
    id: z.uuid(),
    websiteId: z.uuid(),
    timestamp: z.iso.datetime(),
    consentChoice: z.enum(['accepted', 'declined']),
    country: z.string().nullable(),
    city: z.string().nullable(),
    email: z.string().nullable(),
    ipAddress: z.string().nullable(),
    offeredPurposes: z.array(optionalPurpose).meta({ description: 'The optional purposes the banner asked for' }),
    grantedPurposes: z.array(optionalPurpose).meta({ description: "The purposes granted; fewer than offered on an accepted record is a partial consent ('Partial')" }),
    method: consentMethod,
    rule: consentRule.meta({ description: 'The rule of the visitor’s region that applied' }),
    region: z.string().nullable(),
  })
  .meta({ id: 'ConsentRecord' });

const purposesQuery = z.object({
  websiteId: uuidParam.optional().meta({ description: 'One of the viewer’s websites; omitted: all of them' }),
  days: z.coerce.number().int().min(1).max(366).optional().meta({ description: 'The last `days` UTC days; omitted: all time' }),
});
const purposesAnswer = z
  .object({
    choices: z.int(),
    byMethod: z.object(Object.fromEntries(consentMethods.map((method) => [method, z.int()])) as Record<ConsentMethod, z.ZodInt>),
    purposes: z.array(
      z.object({
        purpose: optionalPurpose,
        offered: z.int(),
        granted: z.int(),
        acceptanceRate: z.number().nullable().meta({ description: 'Granted share of the choices that offered it, in percent; null if never offered' }),
      }),
    ),
  })
  .meta({ id: 'PurposeStats' });

const usageAnswer = z
  .object({
    user: z.object({ maxWebsites: z.int(), maxConsentsPerMonth: z.int(), subscriptionStatus: z.string() }),
    subscriptionPlan: z
      .object({
        displayName: z.string(),
        price: z.int(),
        features: z.array(z.string()),
        perResolutionCents: z.int().nullable().meta({ description: 'What one resolution costs on this plan, in cents; null: not billed' }),
        dataTypes: z.array(planDataType),
      })
      .nullable(),
    currentWebsites: z.int(),
    currentMonthConsents: z.int(),
    resolutionsThisMonth: z.int().meta({
      description:
        "Resolutions this UTC month on the owner's websites: people first identified on each website this month, each person once per website and month (their normalised email, else the visitor a network match named)",
    }),
    consentQuotaExceeded: z.boolean().meta({
      description:
        "More consents this month than the plan's maxConsentsPerMonth. Nothing is refused or left out: every consent is recorded and counted in statistics and analytics; the owner is asked to upgrade.",
    }),
  })
  .meta({ id: 'SubscriptionUsage' });

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The last `days` UTC days, oldest first, ending today. */
export function lastDays(days: number, today = new Date()): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, index) => isoDay(new Date(end - (days - 1 - index) * 86_400_000)));
}

export const statsRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  async function scopeIds(request: FastifyRequest): Promise<string[]> {
    return (await visibleWebsites(pool, signedInViewer(request))).map((website) => website.id);
  }

  app.get(
    '/api/stats/consents',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['stats'], summary: 'Consent totals over the viewer’s websites', response: { 200: consentStatsAnswer, ...errorsFor(401) } },
    },
    async (request) => {
      const stats = await getConsentStats(pool, { websiteIds: await scopeIds(request) });
      return { totalConsents: stats.totalConsents, declinedConsents: stats.declinedConsents, consentRate: stats.consentRate };
    },
  );

  app.get(
    '/api/stats/websites',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['stats'],
        summary: 'Consent totals per website, most consents first (websites without any included)',
        response: { 200: websiteStatsAnswer, ...errorsFor(401) },
      },
    },
    async (request) => {
      const websites = await visibleWebsites(pool, signedInViewer(request));
      const stats = new Map((await getConsentStatsByWebsite(pool, { websiteIds: websites.map((website) => website.id) })).map((row) => [row.websiteId, row]));
      return websites
        .map((website) => {
          const row = stats.get(website.id);
          return {
            website: { id: website.id, domain: website.domain, name: website.name },
            totalConsents: row?.totalConsents ?? 0,
            consentRate: row?.consentRate ?? 0,
          };
        })
        .sort((a, b) => b.totalConsents - a.totalConsents || a.website.name.localeCompare(b.website.name));
    },
  );

  app.get(
    '/api/stats/consents/daily',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['stats'],
        summary: 'Accepted and declined consents per UTC day for the last `days` days, days without any as zeros',
        querystring: dailyQuery,
        response: { 200: dailyAnswer, ...errorsFor(400, 401) },
      },
    },
    async (request) => {
      const days = lastDays(request.query.days);
      const counts = await getDailyConsentCounts(pool, { websiteIds: await scopeIds(request), fromDay: days[0], toDay: days.at(-1) });
      const byDay = new Map(counts.map((count) => [count.day, count]));
      return days.map((date) => ({ date, accepted: byDay.get(date)?.accepted ?? 0, declined: byDay.get(date)?.declined ?? 0 }));
    },
  );

  app.get(
    '/api/stats/purposes',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['stats'],
        summary: 'Acceptance per purpose and the split Accept All / Reject All / Customized',
        description: "Over one of the viewer's websites or all of them. Another owner's website answers 404, as if it did not exist.",
        querystring: purposesQuery,
        response: { 200: purposesAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const inScope = await scopeIds(request);
      const { websiteId, days } = request.query;
      if (websiteId !== undefined && !inScope.includes(websiteId)) throw new WebsiteNotFoundError();
      const range = days === undefined ? null : lastDays(days);
      const summary = await getPurposeSummary(pool, {
        websiteIds: websiteId === undefined ? inScope : [websiteId],
        fromDay: range?.[0] ?? null,
        toDay: range?.at(-1) ?? null,
      });
      return { ...summary, purposes: [...summary.purposes] };
    },
  );

  app.get(
    '/api/consents',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['consents'],
        summary: 'The newest consent records of the viewer’s websites',
        querystring: consentsQuery,
        response: { 200: z.array(consentRecordAnswer), ...errorsFor(400, 401) },
      },
    },
    async (request) =>
      (await listConsentRecords(pool, { websiteIds: await scopeIds(request), limit: request.query.limit })).map((record) => ({
        ...record,
        offeredPurposes: [...record.offeredPurposes],
        grantedPurposes: [...record.grantedPurposes],
      })),
  );

  app.get(
    '/api/subscription/usage',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['subscription'],
        summary: "The owner's plan, limits and use this month (UTC)",
        response: { 200: usageAnswer, ...errorsFor(401, 403) },
      },
    },
    async (request) => {
      const user = signedInOwner(request);
      // The owner's own websites, also for an admin who has an owner account.
      const websites = await listWebsites(pool, user.id);
      const firstOfMonth = `${isoDay(new Date()).slice(0, 7)}-01`;
      const websiteIds = websites.map((website) => website.id);
      const [plan, monthStats, resolutionsThisMonth] = await Promise.all([
        getSubscriptionPlan(pool, user.subscriptionTier),
        getConsentStats(pool, { websiteIds, fromDay: firstOfMonth }),
        countResolutionsInMonth(pool, websiteIds, firstOfMonth),
      ]);
      return {
        user: { maxWebsites: user.maxWebsites, maxConsentsPerMonth: user.maxConsentsPerMonth, subscriptionStatus: user.subscriptionStatus },
        subscriptionPlan: plan ? { displayName: plan.displayName, price: plan.priceCents, features: [...plan.features], ...resolutionTermsOf(plan.id) } : null,
        currentWebsites: websites.length,
        currentMonthConsents: monthStats.totalConsents,
        resolutionsThisMonth,
        consentQuotaExceeded: monthStats.totalConsents > user.maxConsentsPerMonth,
      };
    },
  );
};
