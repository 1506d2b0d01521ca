// GET /api/events: server-sent events telling an open dashboard which of its queries changed, so
// it refreshes exactly those without polling. Each message is
// `{"type":"projection-advanced","keys":[["stats"],["consents"]]}` (query-key prefixes of the web
// app). Notices are filtered to the signed-in owner's websites and coalesced per connection.
//
// A stream lives long, so who is asking is looked at again, not only when it opens: before anything
// is sent, if the last look is older than `recheckMs`, and at every heartbeat. After a sign-out
// (here or in another process), a deleted or switched-off account, the stream ends. Each account
// may hold at most `maxStreamsPerAccount` streams open in this process.
import type { ProjectionNotifier, Queryable } from '@consentry/infra';
import type { FastifyPluginAsync } from 'fastify';
import { canSeeWebsite, reloadViewer, signedInViewer, visibleWebsiteIds, type Viewer } from '../access';

export interface LiveOptions {
  readonly pool: Queryable;
  readonly notifier: ProjectionNotifier;
  /** Notices within this window go out as one message. */
  readonly coalesceMs?: number;
  readonly heartbeatMs?: number;
  /** How old the last look at the session may be when something is about to be sent. */
  readonly recheckMs?: number;
  readonly maxStreamsPerAccount?: number;
}

/** The web app's query-key prefixes that each projection feeds. */
export const queryKeysByProjection: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'consent-stats': [['stats'], ['subscription']],
  // Acceptance per purpose is read under the stats keys.
  'consent-purposes': [['stats']],
  'consent-records': [['consents']],
  'website-activity': [['websites']],
  analytics: [['analytics'], ['recommendations']],
  // The leads list, a lead's page and the dashboard's Identified visitors card (all under ['leads']),
  // and the resolutions bar of the subscription usage.
  leads: [['leads'], ['subscription']],
};

/** Who the stream is for, and the websites they may hear about (null: every website, for an admin). */
interface Listener {
  readonly viewer: Viewer;
  readonly websiteIds: readonly string[] | null;
}

const accountOf = (viewer: Viewer) => (viewer.adminUsername !== null ? `admin:${viewer.adminUsername}` : `user:${viewer.user?.id}`);
const isSignedIn = (viewer: Viewer) => viewer.user !== null || viewer.adminUsername !== null;

export const liveRoutes: FastifyPluginAsync<LiveOptions> = async (app, options) => {
  const coalesceMs = options.coalesceMs ?? 250;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const recheckMs = options.recheckMs ?? 1_000;
  const maxStreams = options.maxStreamsPerAccount ?? 10;
  const openStreams = new Map<string, number>();

  const listenerOf = async (viewer: Viewer): Promise<Listener> => ({ viewer, websiteIds: await visibleWebsiteIds(options.pool, viewer) });

  const route = {
    config: { access: 'signedIn', signInPrompt: 'Sign in to receive live updates' },
    schema: { hide: false, description: 'Server-sent events: which query keys to refresh' },
  } as const;

  app.get('/api/events', route, async (request, reply) => {
    let listener: Listener | null = await listenerOf(signedInViewer(request));
    const account = accountOf(listener.viewer);
    if ((openStreams.get(account) ?? 0) >= maxStreams) {
      return reply
        .code(429)
        .header('retry-after', '30')
        .send({ error: { code: 'TOO_MANY_STREAMS', message: `At most ${maxStreams} live-update connections per account; close other tabs of this app` } });
    }
    openStreams.set(account, (openStreams.get(account) ?? 0) + 1);
    let checkedAt = Date.now();

    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 3000\n\n');

    /** Websites named by notices since the last message, per projection. */
    const pending = new Map<string, Set<string>>();
    let flushTimer: NodeJS.Timeout | undefined;
    let ended = false;

    /** Who listens as of at most recheckMs ago; null once signed out (the stream has then ended). */
    async function currentListener(): Promise<Listener | null> {
      if (Date.now() - checkedAt >= recheckMs) {
        checkedAt = Date.now();
        // The database briefly away is no sign-out: keep the last answer until it can be asked. So is
        // an admin whose password must now be replaced (no longer signed in, not signed out either).
        listener = await reloadViewer(request)
          .then((viewer) => (isSignedIn(viewer) ? listenerOf(viewer) : viewer.pendingAdminUsername ? listener : null))
          .catch(() => listener);
        if (!listener) end();
      }
      return ended ? null : listener;
    }

    async function flush(): Promise<void> {
      flushTimer = undefined;
      const seen = await currentListener();
      if (!seen) return;
      const keys = new Map<string, readonly string[]>();
      for (const [projection, websiteIds] of pending) {
        const visible = seen.websiteIds === null || [...websiteIds].some((id) => canSeeWebsite(seen.websiteIds, id));
        if (!visible) continue;
        for (const key of queryKeysByProjection[projection] ?? []) keys.set(key.join('\u0000'), key);
      }
      pending.clear();
      if (keys.size > 0) response.write(`data: ${JSON.stringify({ type: 'projection-advanced', keys: [...keys.values()] })}\n\n`);
    }

    const unsubscribe = options.notifier.subscribe((notice) => {
      if (!queryKeysByProjection[notice.projection]) return;
      const websiteIds = pending.get(notice.projection) ?? new Set<string>();
      for (const id of notice.websiteIds) websiteIds.add(id);
      pending.set(notice.projection, websiteIds);
      flushTimer ??= setTimeout(() => void flush(), coalesceMs);
    });
    const heartbeat = setInterval(() => {
      void currentListener().then((seen) => {
        if (seen) response.write(': keep-alive\n\n');
      });
    }, heartbeatMs);

    function end(): void {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      if (flushTimer) clearTimeout(flushTimer);
      const left = (openStreams.get(account) ?? 1) - 1;
      if (left > 0) openStreams.set(account, left);
      else openStreams.delete(account);
      if (!response.writableEnded) response.end();
    }
    request.raw.once('close', end);
  });
};
