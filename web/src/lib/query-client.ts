// The app's QueryClient (spec sections 7 and 9): data never goes stale and is never refetched on a
// timer or on focus, and nothing is retried. Freshness comes from invalidation instead: after the
// user's own writes, and when the api's server-sent events say a projection advanced.
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
