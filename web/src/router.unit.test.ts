// Route loaders preload data, not only code: preloading a screen (what hovering a link does) starts the
// queries it reads on entry, under the keys its components read, and a failing query is left to the
// screen's own error state rather than failing the route.
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './lib/query-client';
import { jsonResponse, stubFetch } from './test/render';
import { createAppRouter } from './router';

const owner = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  subscriptionTier: 'free',
  subscriptionStatus: 'active',
  maxWebsites: 1,
  maxConsentsPerMonth: 10_000,
  isActive: true,
};
const website = { id: 'w1', name: 'Shop', domain: 'shop.example.com', isActive: true, embedCode: 'abcdefgh', createdAt: '2024-05-01T12:00:00Z' };

/** An owner signed in, no admin; `routes` answer the screen's own requests. */
function stubOwnerApi(routes: Parameters<typeof stubFetch>[0]) {
  return stubFetch({
    'GET /api/auth/user': () => jsonResponse(owner),
    'GET /api/admin/me': () => jsonResponse({ error: { code: 'UNAUTHENTICATED', message: 'Sign in' } }, 401),
    ...routes,
  });
}

function createTestRouter() {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: ['/'] }));
  return { queryClient, router };
}

describe('preloading a screen', () => {
  it('loads the websites of /websites into the cache the screen reads', async () => {
    const { requests } = stubOwnerApi({ 'GET /api/websites': () => jsonResponse([website]) });
    const { queryClient, router } = createTestRouter();
    await router.preloadRoute({ to: '/websites' });
    await vi.waitFor(() => expect(queryClient.getQueryData(['websites'])).toEqual([website]));
    expect(requests.filter((request) => request.url === '/api/websites')).toHaveLength(1);
  });

  it("loads a lead's page by its parameters, and the leads list by the URL's search", async () => {
    stubOwnerApi({
      'GET /api/websites': () => jsonResponse([website]),
      'GET /api/leads?': () => jsonResponse({ leads: [], nextCursor: null }),
      'GET /api/leads/w1/v1': () => jsonResponse({ lead: { visitorId: 'v1' }, timeline: [], enrichmentOn: false }),
    });
    const { queryClient, router } = createTestRouter();
    await router.preloadRoute({ to: '/leads/$websiteId/$visitorId', params: { websiteId: 'w1', visitorId: 'v1' } });
    await vi.waitFor(() => expect(queryClient.getQueryData(['leads', 'w1', 'v1'])).toMatchObject({ lead: { visitorId: 'v1' } }));
    await router.preloadRoute({ to: '/leads', search: { q: 'ada' } });
    await vi.waitFor(() => expect(queryClient.getQueryData(['leads', 'list', { q: 'ada' }])).toMatchObject({ pages: [{ leads: [], nextCursor: null }] }));
  });

  it("loads the data of a website's tab by the website in its path, with the websites its page reads", async () => {
    stubOwnerApi({
      'GET /api/websites/w1/webhooks': () => jsonResponse([]),
      'GET /api/websites': () => jsonResponse([website]),
    });
    const { queryClient, router } = createTestRouter();
    await router.preloadRoute({ to: '/websites/$websiteId/webhooks', params: { websiteId: 'w1' } });
    await vi.waitFor(() => {
      expect(queryClient.getQueryData(['webhooks', 'w1'])).toEqual([]);
      expect(queryClient.getQueryData(['websites'])).toEqual([website]);
    });
  });

  it('leaves a failing query to the screen instead of failing the route', async () => {
    stubOwnerApi({ 'GET /api/websites': () => jsonResponse({ error: { code: 'INTERNAL', message: 'Down' } }, 500) });
    const { queryClient, router } = createTestRouter();
    await expect(router.preloadRoute({ to: '/websites' })).resolves.toBeDefined();
    await vi.waitFor(() => expect(queryClient.getQueryState(['websites'])?.status).toBe('error'));
  });
});
