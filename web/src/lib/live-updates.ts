// Near-real-time dashboards without polling: the api pushes a server-sent event whenever projections
// advance, naming the query-key prefixes whose data changed, and only those queries are invalidated.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

export const liveUpdatesUrl = '/api/events';

export interface ProjectionAdvancedMessage {
  type: 'projection-advanced';
  keys: QueryKey[];
}

/** Reads one SSE message body; anything that is not a well-formed projection-advanced message is null. */
export function parseLiveUpdate(data: unknown): ProjectionAdvancedMessage | null {
  if (typeof data !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const { type, keys } = parsed as { type?: unknown; keys?: unknown };
  if (type !== 'projection-advanced' || !Array.isArray(keys)) return null;
  // An empty prefix would match every query; refusing it keeps "never invalidate everything" true.
  const prefixes = keys.filter((key): key is QueryKey => Array.isArray(key) && key.length > 0);
  return { type, keys: prefixes };
}

/** Invalidates exactly the query-key prefixes a message names. */
export async function applyLiveUpdate(queryClient: QueryClient, message: ProjectionAdvancedMessage): Promise<void> {
  await Promise.all(message.keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * Keeps one EventSource open on /api/events while the calling component is mounted. The browser
 * reconnects on its own after a dropped connection.
 */
export function useLiveUpdates(enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(liveUpdatesUrl, { withCredentials: true });
    source.onmessage = (event: MessageEvent<unknown>) => {
      const message = parseLiveUpdate(event.data);
      if (message) void applyLiveUpdate(queryClient, message);
    };
    return () => source.close();
  }, [enabled, queryClient]);
}
