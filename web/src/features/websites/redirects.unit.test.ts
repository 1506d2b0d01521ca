// The spec's older screens are tabs of a website's page now: each old URL redirects to the tab with
// the same content, of the website the URL named, else of the owner's first website, else to the
// Websites page. Run through the app's real route tree, as a browser opening a bookmark would.
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { createAppRouter } from '../../router';
import { jsonResponse, stubFetch } from '../../test/render';

const owner = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: null, subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 3, maxConsentsPerMonth: 10_000, isActive: true };
const admin = { username: 'admin', mustChangePassword: false };
const websites = [
  { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T12:00:00Z' },
  { id: 'w2', name: 'Blog', domain: 'blog.example', isActive: true, embedCode: 'emb_2', createdAt: '2024-05-02T12:00:00Z' },
];
const unauthenticated = () => jsonResponse({ error: { code: 'UNAUTHENTICATED', message: 'Sign in' } }, 401);

/** Opens `url` signed in as `viewer` with these websites, and answers where the router landed. */
async function land(url: string, { viewer = 'owner', owned = websites }: { viewer?: 'owner' | 'admin'; owned?: typeof websites } = {}) {
  stubFetch({
    'GET /api/auth/user': () => (viewer === 'owner' ? jsonResponse(owner) : unauthenticated()),
    'GET /api/admin/me': () => (viewer === 'admin' ? jsonResponse(admin) : unauthenticated()),
    // Exactly the list: the tabs' own requests (…/settings, …/scans) are not answered here.
    'GET /api/websites': (request) => (request.url === '/api/websites' ? jsonResponse(owned) : new Response('Not Found', { status: 404 })),
  });
  const router = createAppRouter(createQueryClient(), createMemoryHistory({ initialEntries: [url] }));
  await router.load();
  const { pathname, hash } = router.state.location;
  return hash ? `${pathname}#${hash}` : pathname;
}

describe('the old routes', () => {
  describe('for an owner with websites', () => {
    it.each([
      ['/website-analytics?website=w2', '/websites/w2/consent'],
      ['/website-analytics?websiteId=w2', '/websites/w2/consent'],
      ['/website-analytics?website=w2&tab=consent', '/websites/w2/consent'],
      ['/website-analytics?website=w2&tab=traffic', '/websites/w2/traffic'],
      ['/website-analytics?website=w2&tab=settings', '/websites/w2/banner'],
      ['/website-analytics?website=w2&tab=scan', '/websites/w2/scan'],
      ['/website-analytics?website=w2&tab=webhooks', '/websites/w2/webhooks'],
      ['/website-analytics', '/websites'],
      ['/analytics', '/websites/w1/traffic'],
      ['/recommendations', '/websites/w1/overview'],
      ['/installation', '/websites/w1/installation'],
      ['/user/installation', '/websites/w1/installation'],
      ['/setup-instructions', '/websites/w1/installation'],
      ['/user/setup-instructions', '/websites/w1/installation'],
      ['/settings', '/websites/w1/banner'],
      ['/user/settings', '/websites/w1/banner'],
      ['/export', '/websites/w1/consent#export'],
      ['/user/export', '/websites/w1/consent#export'],
      ['/user/websites', '/websites'],
      ['/websites/w2', '/websites/w2/overview'],
    ])('%s lands on %s', async (url, target) => {
      expect(await land(url)).toBe(target);
    });
  });

  describe('for an owner without websites', () => {
    it.each(['/analytics', '/recommendations', '/user/installation', '/setup-instructions', '/user/settings', '/user/export', '/website-analytics'])(
      '%s lands on the Websites page',
      async (url) => {
        expect(await land(url, { owned: [] })).toBe('/websites');
      },
    );
  });

  describe('for an admin', () => {
    it.each([
      ['/admin/installation', '/websites/w1/installation'],
      ['/admin/setup-instructions', '/websites/w1/installation'],
      ['/admin/export', '/websites/w1/consent#export'],
      ['/website-analytics?website=w2&tab=scan', '/websites/w2/scan'],
      ['/website-analytics', '/admin/websites'],
    ])('%s lands on %s', async (url, target) => {
      expect(await land(url, { viewer: 'admin' })).toBe(target);
    });

    it('keeps the installation-wide Settings and Websites of its own', async () => {
      expect(await land('/admin/settings', { viewer: 'admin' })).toBe('/admin/settings');
      expect(await land('/admin/installation', { viewer: 'admin', owned: [] })).toBe('/admin/websites');
    });
  });
});
