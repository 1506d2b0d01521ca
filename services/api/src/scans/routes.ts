// Cookie and tracker scans of a website: start one (it waits in the queue the scan runners of
// `consentry start` share fairly between owners; at most maxOpenScansPerOwner waiting or running per
// owner), follow its progress, read its report, and say what an unclassified cookie is for. Every route answers 404 for a website or scan outside the
// viewer's scope, as if it did not exist.
import { randomUUID } from 'node:crypto';
import {
  ScanInProgressError,
  defaultScanPages,
  itemPurposeDecider,
  maxScanPages,
  scanAssignmentsStreamId,
  scanDecider,
  scanFinding,
  scanStreamId,
  scannedItem,
  scannedPurpose,
  storageKind,
} from '@consentry/events';
import type { Db } from '@consentry/infra';
import { findOpenScan, getScanReport, isOpenScanConflict, listItemAssignments, listScans, type ScanSummary, type Website } from '@consentry/projections';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInViewer, visibleWebsite, visibleWebsites } from '../access';
import { handleApiCommand } from '../domain/commands';
import { ApiError } from '../errors';
import { errorsFor, uuidParam } from '../schemas';
import { maxOpenScansPerOwner, scanLimitGuard } from './scan-limit';

const scanSummaryAnswer = z
  .object({
    scanId: z.string(),
    websiteId: z.string(),
    trigger: z.enum(['owner', 'schedule', 'cli']),
    requestedBy: z.string().nullable(),
    maxPages: z.int(),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    requestedAt: z.string(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    pagesScanned: z.int().nullable(),
    truncated: z.boolean().nullable(),
    failureReason: z.string().nullable(),
    findingCount: z.int(),
    progress: z.object({ pagesDone: z.int(), pagesPlanned: z.int(), currentUrl: z.string().nullable() }),
  })
  .meta({ id: 'ScanSummary' });

const scanReportAnswer = scanSummaryAnswer
  .extend({ items: z.array(scannedItem), findings: z.array(scanFinding) })
  .meta({ id: 'ScanReport', description: 'A scan with every item it saw (classified) and its findings, most serious first' });

const newScanBody = z
  .object({
    maxPages: z.int().min(1).max(maxScanPages).default(defaultScanPages).meta({ description: `Pages to visit (1–${maxScanPages}, default ${defaultScanPages})` }),
  })
  .strict();

const assignmentBody = z
  .object({
    kind: storageKind,
    name: z.string().trim().min(1).max(256),
    purpose: scannedPurpose.nullable().meta({ description: 'What the item is for; null hands it back to the Open Cookie Database (or Unclassified)' }),
  })
  .strict();

const assignmentAnswer = z.array(z.object({ kind: storageKind, name: z.string(), purpose: scannedPurpose }));

const toSummaryAnswer = (scan: ScanSummary): z.infer<typeof scanSummaryAnswer> => ({ ...scan, progress: { ...scan.progress } });

export const scanRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  async function websiteInScope(request: FastifyRequest, websiteId: string): Promise<{ website: Website; actor: string }> {
    const viewer = signedInViewer(request);
    return { website: await visibleWebsite(pool, viewer, websiteId), actor: viewer.adminUsername ?? viewer.user!.id };
  }

  app.post(
    '/api/websites/:id/scans',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['scans'],
        summary: 'Scan the website for cookies and trackers',
        description:
          'Queues a scan (ScanRequested); the scan runner of `consentry start` visits up to `maxPages` pages of the website in headless Chromium, before any choice, after Accept All and after Reject All. ' +
          '409 `SCAN_IN_PROGRESS` while another scan of the website waits or runs; ' +
          `429 \`SCAN_QUEUE_FULL\` while the website's owner already has ${maxOpenScansPerOwner} scans they asked for waiting or running (scheduled scans do not count).`,
        params: z.object({ id: uuidParam }),
        body: newScanBody.nullish(),
        response: { 202: scanSummaryAnswer, ...errorsFor(400, 401, 404, 409, 415, 429) },
      },
    },
    async (request, reply) => {
      const { website, actor } = await websiteInScope(request, request.params.id);
      const scanId = randomUUID();
      try {
        await handleApiCommand(
          pool,
          scanStreamId(scanId),
          scanDecider,
          {
            type: 'RequestScan',
            data: {
              scanId,
              websiteId: website.id,
              requestedBy: actor,
              maxPages: request.body?.maxPages ?? defaultScanPages,
              websiteHasOpenScan: (await findOpenScan(pool, website.id)) !== null,
            },
            metadata: { now: new Date().toISOString() },
          },
          { hooks: [scanLimitGuard] },
        );
      } catch (error) {
        // Another request queued one since the read: the scans read model refuses the second.
        if (isOpenScanConflict(error)) throw new ScanInProgressError();
        throw error;
      }
      const report = await getScanReport(pool, scanId);
      return reply.code(202).send(toSummaryAnswer(report!));
    },
  );

  app.get(
    '/api/websites/:id/scans',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['scans'],
        summary: "The website's scans, newest first (the scan history)",
        params: z.object({ id: uuidParam }),
        response: { 200: z.array(scanSummaryAnswer), ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const { website } = await websiteInScope(request, request.params.id);
      return (await listScans(pool, website.id)).map(toSummaryAnswer);
    },
  );

  app.get(
    '/api/scans/:scanId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['scans'],
        summary: 'A scan: its progress, or its report',
        params: z.object({ scanId: uuidParam }),
        response: { 200: scanReportAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const report = await getScanReport(pool, request.params.scanId);
      if (!report || !(await visibleWebsites(pool, signedInViewer(request))).some((website) => website.id === report.websiteId)) {
        throw new ApiError(404, 'SCAN_NOT_FOUND', 'Scan not found');
      }
      return { ...toSummaryAnswer(report), items: [...report.items], findings: [...report.findings] };
    },
  );

  app.get(
    '/api/websites/:id/item-purposes',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['scans'],
        summary: "The owner's purposes for cookies and storage keys (they win over the Open Cookie Database)",
        params: z.object({ id: uuidParam }),
        response: { 200: assignmentAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const { website } = await websiteInScope(request, request.params.id);
      return listItemAssignments(pool, website.id);
    },
  );

  app.post(
    '/api/websites/:id/item-purposes',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['scans'],
        summary: 'Say what a cookie or storage key is for (ItemPurposeAssigned); the next scan classifies it so',
        params: z.object({ id: uuidParam }),
        body: assignmentBody,
        response: { 200: assignmentAnswer, ...errorsFor(400, 401, 404, 415) },
      },
    },
    async (request) => {
      const { website, actor } = await websiteInScope(request, request.params.id);
      const { kind, name, purpose } = request.body;
      await handleApiCommand(
        pool,
        scanAssignmentsStreamId(website.id),
        itemPurposeDecider,
        { type: 'AssignItemPurpose', data: { websiteId: website.id, kind, name, purpose, assignedBy: actor }, metadata: { now: new Date().toISOString() } },
        // The owner's latest word on an item wins, also over one said meanwhile.
        { retriesOnConflict: 3 },
      );
      return listItemAssignments(pool, website.id);
    },
  );
};
