// Site analytics and recommendations over the viewer's websites (spec sections 3 and 7), from the
// analytics, consent-dimension and consent-stats read models: a range is a sum over daily rows,
// never a scan of raw events. A website outside the viewer's scope is a 404, like a missing one.
import { isoDay } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { getAllRecommendationReports, getDailyAnalytics, getRecommendationReport, getSiteAnalytics } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { signedInViewer, visibleWebsites } from '../access';
import { ApiError } from '../errors';
import { errorsFor, uuidParam } from '../schemas';

const day = isoDay;
const maxRangeDays = 366;
const dayMs = 86_400_000;

const analyticsQuery = z
  .object({ startDate: day.optional(), endDate: day.optional() })
  .transform(({ startDate, endDate }, context) => {
    const end = endDate ?? new Date().toISOString().slice(0, 10);
    // Spec section 5: the default range is the last 30 days.
    const start = startDate ?? new Date(Date.parse(end) - 29 * dayMs).toISOString().slice(0, 10);
    const days = (Date.parse(end) - Date.parse(start)) / dayMs + 1;
    if (days < 1) context.addIssue({ code: 'custom', message: 'startDate must not be after endDate', path: ['startDate'] });
    if (days > maxRangeDays) context.addIssue({ code: 'custom', message: `The range may span at most ${maxRangeDays} days`, path: ['startDate'] });
    return { fromDay: start, toDay: end };
  });

const siteAnalyticsAnswer = z
  .object({
    uniqueVisitors: z.int(),
    totalPageviews: z.int(),
    pagesPerVisit: z.number(),
    avgTimeOnSite: z.number().meta({ description: 'Seconds' }),
    bounceRate: z.number().meta({ description: 'Percent' }),
    topPages: z.array(z.object({ url: z.string(), views: z.int() })).readonly(),
    topReferrers: z.array(z.object({ domain: z.string(), visits: z.int() })).readonly(),
    mobileEngagement: z.object({
      locationMapViews: z.int(),
      hoursOperationViews: z.int(),
      contactFormSubmissions: z.int(),
      tapToCallActions: z.int(),
    }),
    deviceBreakdown: z.record(z.string(), z.int()),
  })
  .meta({ id: 'SiteAnalytics' });

const dailyAnalyticsAnswer = z
  .object({
    days: z
      .array(
        z.object({
          day: z.iso.date().meta({ description: 'A UTC day, YYYY-MM-DD' }),
          uniqueVisitors: z.int().meta({ description: 'Visitors with a page view that day (a visitor of several days counts on each)' }),
          pageviews: z.int(),
          visits: z.int().meta({ description: 'Visits started that day' }),
        }),
      )
      .readonly()
      .meta({ description: 'Every day of the range in order, days without traffic as zeros' }),
  })
  .meta({ id: 'DailyAnalytics' });

const recommendation = z.object({
  id: z.string(),
  type: z.enum(['consent_rate', 'compliance', 'user_experience', 'performance', 'legal']),
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  title: z.string(),
  description: z.string(),
  impact: z.string(),
  actionItems: z.array(z.string()).readonly(),
  estimatedImprovement: z.string(),
  timeToImplement: z.string(),
  implementationDifficulty: z.enum(['easy', 'medium', 'hard']),
  priority: z.number(),
  relatedMetrics: z.array(z.string()).readonly(),
});

const reportAnswer = z
  .object({
    consentRate: z.number(),
    totalConsents: z.int(),
    mobileConsentRate: z.number(),
    desktopConsentRate: z.number(),
    recommendations: z.array(recommendation).readonly(),
  })
  .meta({ id: 'RecommendationReport' });

const allReportsAnswer = z.array(
  z.object({
    website: z.object({ id: z.uuid(), name: z.string(), domain: z.string() }),
    consentRate: z.number(),
    totalConsents: z.int(),
    recommendations: z.array(recommendation).readonly(),
  }),
);

const periodQuery = z.object({ days: z.enum(['7', '30', '90']).default('30').transform(Number) });
const websiteNotFound = () => new ApiError(404, 'WEBSITE_NOT_FOUND', 'Website not found');

export const analyticsRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  async function websiteInScope(request: FastifyRequest, websiteId: string) {
    const website = (await visibleWebsites(pool, signedInViewer(request))).find((candidate) => candidate.id === websiteId);
    if (!website) throw websiteNotFound();
    return website;
  }

  app.get(
    '/api/analytics/website/:websiteId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['analytics'],
        summary: 'Site analytics of one website over a date range (default: the last 30 days)',
        params: z.object({ websiteId: uuidParam }),
        querystring: analyticsQuery,
        response: { 200: siteAnalyticsAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const website = await websiteInScope(request, request.params.websiteId);
      return getSiteAnalytics(pool, { websiteId: website.id, ...request.query });
    },
  );

  app.get(
    '/api/analytics/website/:websiteId/daily',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['analytics'],
        summary: 'Unique visitors and page views per UTC day of one website over a date range (default: the last 30 days)',
        params: z.object({ websiteId: uuidParam }),
        querystring: analyticsQuery,
        response: { 200: dailyAnalyticsAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const website = await websiteInScope(request, request.params.websiteId);
      return { days: await getDailyAnalytics(pool, { websiteId: website.id, ...request.query }) };
    },
  );

  app.get(
    '/api/analytics',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['analytics'],
        summary: 'Site analytics of one website for the last `period` days',
        querystring: z.object({ websiteId: uuidParam, period: z.enum(['7', '30', '90']).default('30').transform(Number) }),
        response: { 200: siteAnalyticsAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const website = await websiteInScope(request, request.query.websiteId);
      const toDay = new Date().toISOString().slice(0, 10);
      const fromDay = new Date(Date.parse(toDay) - (request.query.period - 1) * dayMs).toISOString().slice(0, 10);
      return getSiteAnalytics(pool, { websiteId: website.id, fromDay, toDay });
    },
  );

  app.get(
    '/api/recommendations/website/:websiteId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['recommendations'],
        summary: 'Recommendation report of one website over the last 7, 30 or 90 days',
        params: z.object({ websiteId: uuidParam }),
        querystring: periodQuery,
        response: { 200: reportAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const website = await websiteInScope(request, request.params.websiteId);
      const report = await getRecommendationReport(pool, { websiteId: website.id, days: request.query.days as 7 | 30 | 90, now: new Date() });
      if (!report) throw websiteNotFound();
      return report;
    },
  );

  app.get(
    '/api/recommendations/all',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['recommendations'],
        summary: 'A recommendation report per website of the viewer (last 30 days)',
        response: { 200: allReportsAnswer, ...errorsFor(401) },
      },
    },
    async (request) => {
      const websites = await visibleWebsites(pool, signedInViewer(request));
      return getAllRecommendationReports(pool, { websiteIds: websites.map((website) => website.id), now: new Date() });
    },
  );
};
