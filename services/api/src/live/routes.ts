// GET /api/events: server-sent events telling an open dashboard which of its queries changed, so
// it refreshes exactly those without polling. Each message is
// `{"type":"projection-advanced","keys":[["stats"],["consents"]]}` (query-key prefixes of the web
// app). Notices are filtered to the signed-in owner's websites and coalesced per connection.
import type { ProjectionNotifier } from '@consentry/infra';
import type { FastifyPluginAsync } from 'fastify';
import type { OwnerScope, ResolveScope } from '../scope/scope';

export interface LiveOptions {
  readonly notifier: ProjectionNotifier;
  readonly resolveScope: ResolveScope;
  /** Notices within this window go out as one message. */
  readonly coalesceMs?: number;
  readonly heartbeatMs?: number;
}

/** The web app's query-key prefixes that each projection feeds. */
export const queryKeysByProjection: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'consent-stats': [['stats'], ['subscription']],
  'consent-records': [['consents']],
  'website-activity': [['websites']],
  analytics: [['analytics'], ['recommendations']],
};

export const liveRoutes: FastifyPluginAsync<LiveOptions> = async (app, options) => {
  const coalesceMs = options.coalesceMs ?? 250;
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  app.get('/api/events', { schema: { hide: false, description: 'Server-sent events: which query keys to refresh' } }, async (request, reply) => {
    let scope: OwnerScope | null = await options.resolveScope(request);
    if (!scope) return reply.code(401).send({ error: { code: 'UNAUTHENTICATED', message: 'Sign in to receive live updates' } });
    let scopeResolvedAt = Date.now();

    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 3000\n\n');

    const pending = new Map<string, readonly string[]>();
    let flushTimer: NodeJS.Timeout | undefined;
    const flush = () => {
      flushTimer = undefined;
      if (pending.size === 0) return;
      const keys = [...pending.values()];
      pending.clear();
      response.write(`data: ${JSON.stringify({ type: 'projection-advanced', keys })}\n\n`);
    };

    const unsubscribe = options.notifier.subscribe((notice) => {
      void (async () => {
        // Websites are added and removed while a dashboard is open: look again now and then.
        if (Date.now() - scopeResolvedAt > 5000) {
          scope = await options.resolveScope(request).catch(() => scope);
          scopeResolvedAt = Date.now();
        }
        const visible = scope?.websiteIds === null || notice.websiteIds.some((id) => scope?.websiteIds?.includes(id));
        if (!visible) return;
        for (const key of queryKeysByProjection[notice.projection] ?? []) pending.set(key.join('\u0000'), key);
        flushTimer ??= setTimeout(flush, coalesceMs);
      })();
    });
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMs);
    request.raw.once('close', () => {
      unsubscribe();
      clearInterval(heartbeat);
      if (flushTimer) clearTimeout(flushTimer);
    });
  });
};
