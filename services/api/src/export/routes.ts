// GET /api/export/consents?format=csv|json[&websiteId=]: the consent records of the signed-in
// owner's websites (every website, for an admin) as a download, streamed from a server-side cursor so
// memory stays flat however many records there are. Each export, by an owner or an admin, is recorded
// as an event (who exported which personal data, when); GET /api/exports lists an owner's (Recent
// Exports).
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { exportDecider, exportStreamId } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { listRecentExports, type Website } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Cursor from 'pg-cursor';
import { z } from 'zod';
import { signedInViewer, visibleWebsites, type Viewer } from '../access';
import { handleApiCommand } from '../domain/commands';
import { uuidParam } from '../schemas';
import { csvLine } from './csv';

export interface ExportOptions {
  readonly pool: Db;
  /** Rows fetched from the cursor at a time. */
  readonly batchSize?: number;
}

/** The columns of a consent export (spec: consent ID and timestamp, website info, choice, IP, user agent, location). */
export const exportColumns = [
  'consentId',
  'timestamp',
  'websiteId',
  'websiteName',
  'websiteDomain',
  'consentChoice',
  'source',
  'policyVersion',
  'ipAddress',
  'userAgent',
  'deviceClass',
  'country',
  'city',
  'email',
  'pageUrl',
  'offeredPurposes',
  'grantedPurposes',
  'method',
  'rule',
  'region',
] as const;

interface ExportRow {
  event_id: string;
  /** Formatted by Postgres: parsing into Date and back was a fifth of the export's CPU. */
  received_at: string;
  website_id: string;
  choice: string;
  source: string;
  policy_version: string;
  ip_address: string | null;
  user_agent: string | null;
  device_class: string;
  country: string | null;
  city: string | null;
  email: string | null;
  page_url: string | null;
  offered: string[];
  purposes: string[];
  method: string;
  rule: string;
  region: string | null;
}

const csvValue = (value: string | readonly string[] | null): string | null => (Array.isArray(value) ? value.join(' ') : (value as string | null));

/** Who an export is recorded as: a session with admin rights acts as the admin, else as the owner. */
function exporterOf(viewer: Viewer): string {
  const exporter = viewer.adminUsername ?? viewer.user?.id ?? null;
  // The access rule let in an owner or an admin; a viewer who is neither would be a bug, not a request to serve unaudited.
  if (exporter === null) throw new Error('An export viewer is neither an owner nor an admin');
  return exporter;
}

const errorAnswer = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const exportRoutes: FastifyPluginAsyncZod<ExportOptions> = async (app, { pool, batchSize = 4000 }) => {
  app.get(
    '/api/export/consents',
    {
      config: { access: 'signedIn', signInPrompt: 'Sign in to export data' },
      schema: {
        querystring: z.strictObject({ format: z.enum(['csv', 'json']).default('csv'), websiteId: uuidParam.optional() }),
        // A stream is sent as is (fastify does not serialise it); the schema documents the download.
        response: { 200: z.any().describe('The consent records as a CSV or JSON file'), 401: errorAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const viewer = signedInViewer(request);
      const exportedBy = exporterOf(viewer);
      const userId = viewer.user?.id ?? null;
      const { format, websiteId } = request.query;
      // Every website for an admin, the owner's own otherwise: any other website is a 404.
      const websites = new Map<string, Website>((await visibleWebsites(pool, viewer)).map((website) => [website.id, website]));
      if (websiteId !== undefined && !websites.has(websiteId)) {
        return reply.code(404).send({ error: { code: 'WEBSITE_NOT_FOUND', message: 'Website not found' } });
      }
      const websiteIds = websiteId !== undefined ? [websiteId] : viewer.adminUsername ? null : [...websites.keys()];
      const label = websiteId !== undefined ? websites.get(websiteId)!.domain.replace(/[^a-z0-9.-]/g, '-') : 'all-websites';
      const fileName = `consentry-consents-${label}-${new Date().toISOString().slice(0, 10)}.${format}`;

      const client = await pool.connect();
      const cursor = client.query(
        new Cursor<ExportRow>(
          `SELECT event_id, to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS received_at, website_id, choice, source, policy_version, ip_address, user_agent,
                  device_class, country, city, email, page_url, offered, purposes, method, rule, region
             FROM consent_records
            WHERE $1::uuid[] IS NULL OR website_id = ANY($1::uuid[])
            ORDER BY received_at, event_id`,
          [websiteIds],
        ),
      );
      const body = new PassThrough();
      let rowCount = 0;
      let finished = false;
      const release = async () => {
        if (finished) return;
        finished = true;
        await cursor.close().catch(() => undefined);
        client.release();
        // Recorded whether or not the download completed, and whoever exported: personal data left
        // the ledger either way, and an admin's export (any owner's data) needs the record the most.
        await handleApiCommand(
          pool,
          exportStreamId(userId, exportedBy),
          exportDecider,
          {
            type: 'RecordExport',
            data: { exportId: randomUUID(), userId, exportedBy, websiteId: websiteId ?? null, format, rowCount },
            metadata: { now: new Date().toISOString() },
          },
          // Two exports of one owner ending together are both recorded.
          { metadata: { actor: exportedBy }, retriesOnConflict: 3 },
        ).catch((error: unknown) => request.log.error({ err: error }, 'recording an export failed'));
      };
      const pump = async () => {
        try {
          body.write(format === 'csv' ? csvLine(exportColumns) : '[');
          for (;;) {
            const rows = await cursor.read(batchSize);
            if (rows.length === 0) break;
            let chunk = '';
            for (const row of rows) {
              const website = websites.get(row.website_id);
              const record = {
                consentId: row.event_id,
                timestamp: row.received_at,
                websiteId: row.website_id,
                websiteName: website?.name ?? null,
                websiteDomain: website?.domain ?? null,
                consentChoice: row.choice,
                source: row.source,
                policyVersion: row.policy_version,
                ipAddress: row.ip_address,
                userAgent: row.user_agent,
                deviceClass: row.device_class,
                country: row.country,
                city: row.city,
                email: row.email,
                pageUrl: row.page_url,
                offeredPurposes: row.offered,
                grantedPurposes: row.purposes,
                method: row.method,
                rule: row.rule,
                region: row.region,
              };
              // A list is one CSV cell, its purposes separated by spaces (a ';' would split the cell in
              // many locales' spreadsheets, see csv.ts); JSON keeps the array.
              chunk += format === 'csv' ? csvLine(exportColumns.map((column) => csvValue(record[column]))) : `${rowCount === 0 ? '' : ','}\n${JSON.stringify(record)}`;
              rowCount++;
            }
            // Back-pressure: wait for the client to take what was written before reading more.
            if (!body.write(chunk)) await new Promise<void>((resolve) => body.once('drain', resolve));
            if (body.destroyed) break;
          }
          // Recorded before the download completes, so a finished export is always in the list.
          await release();
          body.end(format === 'json' ? '\n]\n' : undefined);
        } catch (error) {
          request.log.error({ err: error }, 'export failed while streaming');
          body.destroy(error as Error);
        } finally {
          await release();
        }
      };
      body.once('close', () => void release());
      void pump();
      return reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  app.get(
    '/api/exports',
    {
      config: { access: 'signedIn', signInPrompt: 'Sign in to see your exports' },
      schema: {
        response: {
          200: z.array(z.object({ id: z.string(), websiteId: z.string().nullable(), format: z.enum(['csv', 'json']), rowCount: z.number(), exportedAt: z.string() })),
          401: errorAnswer,
        },
      },
    },
    async (request) => {
      const { user } = signedInViewer(request);
      return user === null ? [] : listRecentExports(pool, user.id);
    },
  );
};
