/// <reference lib="dom" />
// Screenshots of every screen of the web app at desktop (1280×800) and phone (390×844) width, taken
// in real headless Chromium against the whole system on a test database with realistic data: a few
// owners and websites, a few hundred consents over the last 30 days, visits with page views, time on
// page, engagement and banner impressions, varied website settings, exports, an invitation. Writes
// docs/screens/{desktop,phone}/<screen>.png and fails if a screen scrolls sideways (something is
// cut off) or still shows 'Loading...'.
//
//   npm run build -w @consentry/web && node --import tsx e2e/src/screens.ts [screen…]
//
// Uses DATABASE_URL like the tests (default: the machine's Postgres at 127.0.0.1:5432).
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BannerShownData, DeviceClass, EngagementRecordedData, PageHiddenData, PageViewedData } from '@consentry/events';
import { createGroupCommitAppender, type GroupAppendRequest } from '@consentry/infra';
import { consentAppendRequest, launchChromium, waitFor } from '@consentry/infra/testing';
import { addWebsite, registerOwner, setOwnerPlan, signInAdmin, startWebSystem, type CreatedWebsite, type WebSystem } from './web-harness';

const screensDir = fileURLToPath(new URL('../../docs/screens/', import.meta.url));
const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
type ViewportName = keyof typeof viewports;

/** Who looks at a screen: nobody, the seeded owner or the admin. */
type Viewer = 'visitor' | 'owner' | 'admin';

interface Screen {
  readonly name: string;
  readonly viewer: Viewer;
  readonly path: string;
  /** What must be on the page before the picture is taken. */
  ready(page: Page): Promise<unknown>;
  /** Puts the screen into the state worth showing (a dialog open, a tab chosen). */
  prepare?(page: Page, viewport: ViewportName): Promise<unknown>;
  readonly only?: ViewportName;
  /** Dialogs and menus are pictured as the viewport shows them; pages whole. */
  readonly viewportOnly?: boolean;
}

const visible = (page: Page, locator: ReturnType<Page['getByText']>, what: string) =>
  waitFor(() => locator.filter({ visible: true }).first().isVisible(), { timeoutMs: 15_000, intervalMs: 50, message: `${what} on ${page.url()}` });

/** Takes the focus off a clicked tab, so its keyboard focus ring is not in the picture. */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

const heading = (page: Page, name: string) => visible(page, page.getByRole('heading', { name, exact: true }), `heading '${name}'`);

/**
 * A tab of a website's page, reached as a newcomer does: Websites, the website, the tab. `show`
 * waits for what the picture is about (and may act on the tab).
 */
function websiteTab(name: string, website: string, tab: string, show: (page: Page) => Promise<unknown>): Screen {
  return {
    name,
    viewer: 'owner',
    path: '/websites',
    ready: (page) => visible(page, page.getByRole('link', { name: `Open ${website}` }), 'the websites'),
    prepare: async (page) => {
      await page.getByRole('link', { name: `Open ${website}` }).click();
      await page.getByRole('navigation', { name: 'Website sections' }).getByRole('link', { name: tab, exact: true }).click();
      await heading(page, tab);
      await show(page);
      await blur(page);
      await page.evaluate(() => window.scrollTo(0, 0));
    },
  };
}

const screens: Screen[] = [
  { name: 'landing', viewer: 'visitor', path: '/', ready: (page) => visible(page, page.getByRole('heading', { level: 1 }), 'the hero') },
  { name: 'pricing', viewer: 'visitor', path: '/pricing', ready: (page) => visible(page, page.getByText('Most Popular'), 'the plans') },
  { name: 'privacy', viewer: 'visitor', path: '/privacy', ready: (page) => visible(page, page.getByRole('heading', { level: 1 }), 'the policy') },
  { name: 'login', viewer: 'visitor', path: '/login', ready: (page) => visible(page, page.getByRole('button', { name: 'Sign in' }), 'the form') },
  {
    name: 'login-create-account',
    viewer: 'visitor',
    path: '/login',
    ready: (page) => visible(page, page.getByRole('tab', { name: 'Create account' }), 'the tabs'),
    prepare: async (page) => {
      await page.getByRole('tab', { name: 'Create account' }).click();
      await visible(page, page.getByRole('button', { name: 'Create account' }), 'the form');
      await blur(page);
    },
  },
  { name: 'forgot-password', viewer: 'visitor', path: '/forgot-password', ready: (page) => visible(page, page.getByText('Forgot your password?'), 'the form') },
  { name: 'account', viewer: 'owner', path: '/account', ready: (page) => visible(page, page.getByText('Delete account').first(), 'the sections') },
  { name: 'admin-login', viewer: 'visitor', path: '/admin/login', ready: (page) => visible(page, page.getByRole('button', { name: 'Sign in' }), 'the form') },
  { name: 'not-found', viewer: 'visitor', path: '/no-such-page', ready: (page) => heading(page, '404 Page Not Found') },
  {
    name: 'dashboard',
    viewer: 'owner',
    path: '/dashboard',
    ready: async (page) => {
      await visible(page, page.getByRole('img', { name: /Consent choices per day/ }), 'the chart');
      await visible(page, page.getByRole('region', { name: 'Recent Consent Activity' }).getByText(/^(Accepted|Declined)$/), 'recent activity');
    },
  },
  {
    name: 'menu',
    viewportOnly: true,
    viewer: 'owner',
    path: '/dashboard',
    only: 'phone',
    ready: (page) => visible(page, page.getByRole('button', { name: 'Open menu' }), 'the menu button'),
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await visible(page, page.getByRole('button', { name: 'Close menu' }), 'the open menu');
      await waitFor(async () => (await page.getByRole('complementary').boundingBox())?.x === 0, { timeoutMs: 5_000, message: 'the menu to slide in' });
    },
  },
  {
    name: 'notifications',
    viewportOnly: true,
    viewer: 'owner',
    path: '/dashboard',
    ready: async (page) => {
      await visible(page, page.getByRole('img', { name: /Consent choices per day/ }), 'the chart');
      await visible(page, page.getByRole('button', { name: /^Notifications: \d+\+? new$/ }), 'the unseen count');
    },
    prepare: async (page) => {
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await visible(page, page.getByRole('menuitem', { name: 'View dashboard' }), 'the notifications menu');
    },
  },
  {
    name: 'receipt',
    viewer: 'owner',
    path: '/dashboard',
    ready: (page) => visible(page, page.getByRole('img', { name: /Consent choices per day/ }), 'the chart'),
    prepare: async (page) => {
      const [newest] = (await (await page.request.get(new URL('/api/consents?limit=1', page.url()).href)).json()) as { id: string }[];
      await page.goto(new URL(`/receipts/${newest!.id}`, page.url()).href);
      await visible(page, page.getByRole('heading', { name: /^Verified against seal \d+/ }), 'the verified receipt');
    },
  },
  { name: 'websites', viewer: 'owner', path: '/websites', ready: (page) => visible(page, page.getByRole('article'), 'the websites') },
  {
    name: 'add-website',
    viewportOnly: true,
    viewer: 'owner',
    path: '/websites',
    ready: (page) => visible(page, page.getByRole('button', { name: 'Add Website' }), 'the add button'),
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Add Website' }).click();
      await visible(page, page.getByRole('dialog', { name: 'Add Website' }), 'the dialog');
    },
  },
  { name: 'subscription', viewer: 'owner', path: '/subscription', ready: (page) => visible(page, page.getByText('Consents this month'), 'the usage') },
  websiteTab('website-overview', 'Trattoria Roma', 'Overview', async (page) => {
    await visible(page, page.getByRole('region', { name: 'Next steps' }).getByRole('link'), 'the next steps');
    await visible(page, page.getByLabel(/^Consent Rate: \d/), 'the consent rate');
    await visible(page, page.getByRole('article').first(), 'the recommendations');
  }),
  websiteTab('website-overview-recommendations', 'Pasta Shop', 'Overview', async (page) => {
    await visible(page, page.getByRole('article', { name: 'Many visitors ignore the banner' }), 'the recommendations');
    await visible(page, page.getByText('Retention period: 36 months'), 'the retention period');
  }),
  websiteTab('website-consent', 'Trattoria Roma', 'Consent', async (page) => {
    await visible(page, page.getByRole('region', { name: 'Recent Consent Records' }).getByText(/^(Accepted|Declined)$/), 'the consent records');
    await visible(page, page.getByLabel(/^Consent Rate: \d/), 'the consent rate');
    await visible(page, page.getByRole('region', { name: 'Recent Exports' }).getByRole('listitem'), 'recent exports');
  }),
  websiteTab('website-traffic', 'Trattoria Roma', 'Traffic', async (page) => {
    await visible(page, page.getByLabel(/^Unique Visitors: [1-9]/), 'the figures');
    await visible(page, page.getByRole('img', { name: /^Visits by source/ }), 'the traffic sources chart');
    await visible(page, page.getByRole('img', { name: /^Visits by device/ }), 'the device chart');
  }),
  websiteTab('website-leads', 'Trattoria Roma', 'Leads', (page) => visible(page, page.getByText(/^(No leads yet|\d+ leads? shown)/), 'the leads')),
  websiteTab('website-banner', 'Roma Catering', 'Banner', async (page) => {
    await waitFor(async () => (await page.getByLabel('Retention period (months)').inputValue()) === '24', { timeoutMs: 15_000, message: 'the settings form' });
    await waitFor(async () => (await page.getByLabel('Company name').inputValue()) === 'Trattoria Roma', { timeoutMs: 15_000, message: 'the branding form' });
  }),
  websiteTab('website-scan', 'Trattoria Roma', 'Cookie scan', (page) => visible(page, page.getByRole('region', { name: 'Cookie scan' }), 'the scans')),
  websiteTab('website-installation', 'Trattoria Roma', 'Installation', async (page) => {
    await visible(page, page.getByRole('tab', { name: 'Basic' }), 'the tabs');
    await page.getByRole('button', { name: 'Verify Installation' }).click();
    await visible(page, page.getByRole('status', { name: 'Verification result' }).getByText(/Last event received/), 'the verification result');
    await closeToasts(page);
  }),
  websiteTab('website-installation-preview', 'Trattoria Roma', 'Installation', async (page) => {
    await page.getByRole('tab', { name: 'Preview' }).click();
    await visible(page, page.getByRole('region', { name: 'Banner preview' }), 'the preview');
  }),
  websiteTab('website-webhooks', 'Trattoria Roma', 'Webhooks', (page) => visible(page, page.getByText('No webhook endpoints yet'), 'the webhooks')),
  {
    name: 'website-not-found',
    viewer: 'owner',
    path: '/websites/00000000-0000-4000-8000-000000000000/overview',
    ready: (page) => heading(page, 'Website not found'),
  },
  {
    name: 'admin-dashboard',
    viewer: 'admin',
    path: '/admin',
    ready: async (page) => {
      await visible(page, page.getByRole('img', { name: /Consent choices per day/ }), 'the chart');
      await visible(page, page.getByRole('region', { name: 'Recent Consent Activity' }).getByText(/^(Accepted|Declined)$/), 'recent activity');
    },
  },
  { name: 'admin-websites', viewer: 'admin', path: '/admin/websites', ready: (page) => visible(page, page.getByRole('article'), 'the websites') },
  { name: 'website-editor', viewer: 'admin', path: '/website-editor', ready: (page) => visible(page, page.getByLabel('Hero title'), 'the editor') },
  {
    name: 'website-editor-design',
    viewer: 'admin',
    path: '/website-editor',
    ready: (page) => visible(page, page.getByLabel('Hero title'), 'the editor'),
    prepare: async (page) => {
      await page.getByRole('tab', { name: 'Design' }).click();
      await blur(page);
      const preview = page.frameLocator('iframe[title="Landing page preview"]');
      await waitFor(() => preview.getByRole('heading', { level: 1 }).isVisible(), { timeoutMs: 15_000, message: 'the preview' });
    },
  },
  { name: 'user-management', viewer: 'admin', path: '/user-management', ready: (page) => visible(page, page.getByText('maria@trattoria-roma.example.com'), 'the users') },
  {
    name: 'edit-user',
    viewportOnly: true,
    viewer: 'admin',
    path: '/user-management',
    ready: (page) => visible(page, page.getByText('maria@trattoria-roma.example.com'), 'the users'),
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Edit Maria Rossi' }).filter({ visible: true }).click();
      await visible(page, page.getByRole('dialog', { name: 'Edit user' }), 'the dialog');
    },
  },
  {
    name: 'admin-settings',
    viewer: 'admin',
    path: '/admin/settings',
    ready: (page) => waitFor(async () => (await page.getByLabel('Company name').inputValue()) === 'Consentry', { timeoutMs: 15_000, message: 'the branding form' }),
  },
];

// Realistic visitors: where they come from (truncated IPs, as the default IP mode stores them).
const places = [
  { country: 'IT', city: 'Rome', ipAddress: '151.38.112.0' },
  { country: 'IT', city: 'Milan', ipAddress: '93.45.210.0' },
  { country: 'DE', city: 'Berlin', ipAddress: '85.214.132.0' },
  { country: 'FR', city: 'Paris', ipAddress: '90.84.17.0' },
  { country: 'GB', city: 'London', ipAddress: '81.2.69.0' },
  { country: 'US', city: 'New York', ipAddress: '172.58.44.0' },
  { country: 'ES', city: 'Madrid', ipAddress: '88.26.241.0' },
  { country: 'NL', city: 'Amsterdam', ipAddress: '145.53.8.0' },
] as const;
const devices = [
  { deviceClass: 'desktop', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36' },
  { deviceClass: 'mobile', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' },
  { deviceClass: 'tablet', userAgent: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' },
] as const;

/** A deterministic pseudo-random sequence, so the pictures change only when the app does. */
function createRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface SeededConsents {
  readonly total: number;
}

/**
 * Appends consents over the last 30 days: more each week and more of them accepted lately, so the
 * chart has a shape and the trend badges have something to compare. A few arrive in the last hours.
 */
async function seedConsents(web: WebSystem, websites: readonly { website: CreatedWebsite; perDay: number }[], now = Date.now()): Promise<SeededConsents> {
  const random = createRandom(20_240_501);
  const appender = createGroupCommitAppender(web.db.pool);
  const appends: Promise<unknown>[] = [];
  const dayMs = 86_400_000;
  try {
    for (const { website, perDay } of websites) {
      for (let daysAgo = 29; daysAgo >= 0; daysAgo--) {
        const growth = 0.5 + (29 - daysAgo) / 29;
        const weekend = new Date(now - daysAgo * dayMs).getUTCDay() % 6 === 0 ? 0.7 : 1;
        const count = Math.max(1, Math.round(perDay * growth * weekend * (0.75 + random() * 0.5)));
        const acceptRate = 0.62 + (0.14 * (29 - daysAgo)) / 29;
        for (let index = 0; index < count; index++) {
          // Today's consents stay in the past hours; earlier days spread over the whole day.
          const offsetMs = daysAgo === 0 ? random() * 6 * 3_600_000 : random() * dayMs;
          const receivedAt = new Date(now - daysAgo * dayMs - offsetMs).toISOString();
          const request = consentAppendRequest({ websiteId: website.id, choice: random() < acceptRate ? 'accepted' : 'declined', receivedAt });
          const place = places[Math.floor(random() * places.length)]!;
          const device = devices[Math.floor(random() * devices.length)]!;
          // The builder's visitor is always the same Berlin desktop; this one is from somewhere.
          Object.assign(request.event.data, place, device, { pageUrl: `https://${website.domain}/` });
          appends.push(appender.append(request));
        }
      }
    }
    await Promise.all(appends);
  } finally {
    await appender.close();
  }
  return { total: appends.length };
}

/** Where visitors come from: a landing page's referrer, by weight (empty: typed in or bookmarked). */
const referrers = [
  { referrer: '', weight: 30 },
  { referrer: 'https://www.google.com/search?q=trattoria+rome', weight: 34 },
  { referrer: 'https://www.bing.com/search?q=trattoria', weight: 5 },
  { referrer: 'https://duckduckgo.com/', weight: 4 },
  { referrer: 'https://www.tripadvisor.com/Restaurant_Review', weight: 12 },
  { referrer: 'https://www.instagram.com/', weight: 10 },
  { referrer: 'https://www.facebook.com/', weight: 5 },
] as const;
const paths = [
  { path: '/menu', weight: 30 },
  { path: '/reservations', weight: 18 },
  { path: '/contact', weight: 12 },
  { path: '/about', weight: 10 },
  { path: '/gallery', weight: 8 },
  { path: '/events/wine-tasting-evening-with-our-sommelier', weight: 6 },
  { path: '/blog/2024/the-secret-of-our-fresh-pasta-dough', weight: 4 },
] as const;
const engagements = [
  { kind: 'location_map_view', mobileChance: 0.18, desktopChance: 0.1 },
  { kind: 'opening_hours_view', mobileChance: 0.12, desktopChance: 0.08 },
  { kind: 'tap_to_call', mobileChance: 0.09, desktopChance: 0 },
  { kind: 'contact_form_submit', mobileChance: 0.02, desktopChance: 0.05 },
] as const;

function pickWeighted<T extends { weight: number }>(items: readonly T[], random: () => number): T {
  let left = random() * items.reduce((sum, item) => sum + item.weight, 0);
  for (const item of items) {
    left -= item.weight;
    if (left < 0) return item;
  }
  return items[items.length - 1]!;
}

/**
 * Appends what the widget reports for visitors who accepted, over the last 30 days: visits of 1 to 5
 * page views with time on each page and the odd tap or map view, and one banner impression per
 * `impressionsPerChoice` choices. Each visitor's events are appended in order (the analytics
 * projection follows each visitor's clock); visitors run side by side.
 */
async function seedAnalytics(
  web: WebSystem,
  websites: readonly { website: CreatedWebsite; visitsPerDay: number; consentsPerDay: number; impressionsPerChoice: number }[],
  now = Date.now(),
): Promise<Map<string, number>> {
  const random = createRandom(20_240_611);
  const appender = createGroupCommitAppender(web.db.pool);
  const dayMs = 86_400_000;
  const visitors: GroupAppendRequest[][] = [];
  const pageviews = new Map<string, number>();
  try {
    for (const { website, visitsPerDay, consentsPerDay, impressionsPerChoice } of websites) {
      const origin = `https://${website.domain}`;
      const banner: GroupAppendRequest[] = [];
      for (let daysAgo = 29; daysAgo >= 0; daysAgo--) {
        const growth = 0.5 + (29 - daysAgo) / 29;
        const visits = Math.max(1, Math.round(visitsPerDay * growth * (0.75 + random() * 0.5)));
        for (let visit = 0; visit < visits; visit++) {
          const visitorId = randomUUID();
          const deviceRoll = random();
          const deviceClass: DeviceClass = deviceRoll < 0.55 ? 'mobile' : deviceRoll < 0.9 ? 'desktop' : 'tablet';
          const place = places[Math.floor(random() * places.length)]!;
          // Today's visits stay in the past hours; earlier days spread over the day.
          let at = now - daysAgo * dayMs - (daysAgo === 0 ? random() * 5 * 3_600_000 : random() * (dayMs - 3_600_000));
          const pageCount = random() < 0.38 ? 1 : 2 + Math.floor(random() * 4);
          const events: GroupAppendRequest[] = [];
          const streamId = `visits-${website.id}-${visitorId}`;
          const receivedAt = () => new Date(at).toISOString();
          let referrer: string | null = pickWeighted(referrers, random).referrer || null;
          for (let index = 0; index < pageCount; index++) {
            const path = index === 0 ? (random() < 0.7 ? '/' : pickWeighted(paths, random).path) : pickWeighted(paths, random).path;
            const pageviewId = randomUUID();
            const viewed: PageViewedData = {
              websiteId: website.id,
              visitorId,
              pageviewId,
              url: `${origin}${path}`,
              path,
              referrer,
              title: website.name,
              deviceClass,
              country: place.country,
              receivedAt: receivedAt(),
            };
            events.push({ streamId, event: { type: 'PageViewed', eventId: randomUUID(), data: viewed } });
            pageviews.set(website.id, (pageviews.get(website.id) ?? 0) + 1);
            const visibleMs = Math.round(8_000 + random() * (pageCount === 1 ? 40_000 : 110_000));
            for (const { kind, mobileChance, desktopChance } of engagements) {
              if (random() < (deviceClass === 'desktop' ? desktopChance : mobileChance) / pageCount) {
                at += Math.round(visibleMs / 2);
                const engaged: EngagementRecordedData = { websiteId: website.id, visitorId, pageviewId, kind, receivedAt: receivedAt() };
                events.push({ streamId, event: { type: 'EngagementRecorded', eventId: randomUUID(), data: engaged } });
              }
            }
            at += visibleMs;
            const hidden: PageHiddenData = { websiteId: website.id, visitorId, pageviewId, visibleMs, receivedAt: receivedAt() };
            events.push({ streamId, event: { type: 'PageHidden', eventId: randomUUID(), data: hidden } });
            at += 2_000;
            referrer = `${origin}${path}`;
          }
          visitors.push(events);
        }
        // Banner impressions: most are answered, the rest ignored.
        const impressions = Math.round(consentsPerDay * growth * impressionsPerChoice);
        for (let index = 0; index < impressions; index++) {
          const receivedAt = new Date(now - daysAgo * dayMs - (daysAgo === 0 ? random() * 6 * 3_600_000 : random() * dayMs)).toISOString();
          const shown: BannerShownData = { websiteId: website.id, position: 'bottom', theme: 'light', deviceClass: random() < 0.55 ? 'mobile' : 'desktop', receivedAt };
          banner.push({ streamId: `banner-${website.id}`, event: { type: 'BannerShown', eventId: randomUUID(), data: shown } });
        }
      }
      visitors.push(banner);
    }
    await Promise.all(
      visitors.map(async (events) => {
        for (const request of events) await appender.append(request);
      }),
    );
  } finally {
    await appender.close();
  }
  return pageviews;
}

async function pageviewsSeenBy(context: BrowserContext, baseUrl: string, websiteId: string): Promise<number> {
  const startDate = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
  const response = await context.request.get(`${baseUrl}/api/analytics/website/${websiteId}?startDate=${startDate}`);
  return ((await response.json()) as { totalPageviews: number }).totalPageviews;
}

async function recommendationsSeenBy(context: BrowserContext, baseUrl: string, websiteId: string): Promise<string[]> {
  const response = await context.request.get(`${baseUrl}/api/recommendations/website/${websiteId}?days=30`);
  return ((await response.json()) as { recommendations: { id: string }[] }).recommendations.map((item) => item.id.split(':')[0]!);
}

async function changeSettings(context: BrowserContext, baseUrl: string, websiteId: string, settings: Record<string, unknown>): Promise<void> {
  const response = await context.request.patch(`${baseUrl}/api/websites/${websiteId}/settings`, { data: settings });
  if (!response.ok()) throw new Error(`PATCH /api/websites/${websiteId}/settings answered ${response.status()}: ${await response.text()}`);
}

async function totalConsentsSeenBy(context: BrowserContext, baseUrl: string): Promise<number> {
  const response = await context.request.get(`${baseUrl}/api/stats/consents`);
  return ((await response.json()) as { totalConsents: number }).totalConsents;
}

/** Waits until the consent-records projection has the consent too (the dashboard's table reads it). */
async function newestConsentsSeenBy(context: BrowserContext, baseUrl: string): Promise<number> {
  const response = await context.request.get(`${baseUrl}/api/consents?limit=1000`);
  return ((await response.json()) as unknown[]).length;
}

async function seed(web: WebSystem, browser: Browser): Promise<{ owner: BrowserContext; admin: BrowserContext }> {
  const admin = await browser.newContext();
  await signInAdmin(admin.request, web.url);
  const owner = await browser.newContext();
  const maria = await registerOwner(owner.request, web.url, { email: 'maria@trattoria-roma.example.com', firstName: 'Maria', lastName: 'Rossi' });
  await setOwnerPlan(admin.request, web.url, maria.id, { subscriptionTier: 'pro', maxWebsites: 10, maxConsentsPerMonth: 100_000 });
  const trattoria = await addWebsite(owner.request, web.url, { name: 'Trattoria Roma', domain: 'trattoria-roma.example.com' });
  const catering = await addWebsite(owner.request, web.url, { name: 'Roma Catering', domain: 'catering.trattoria-roma.example.com' });
  const shop = await addWebsite(owner.request, web.url, { name: 'Pasta Shop', domain: 'pasta-shop.example.net' });
  const brandingSaved = await owner.request.put(`${web.url}/api/branding`, { data: { companyName: 'Trattoria Roma', primaryColor: '#b91c1c', logoUrl: null } });
  if (!brandingSaved.ok()) throw new Error(`PUT /api/branding answered ${brandingSaved.status()}`);

  // Other owners, for User Management and the admin's dashboard.
  const others: { website: CreatedWebsite; perDay: number }[] = [];
  for (const [person, site, plan] of [
    [{ email: 'ben@carter-bikes.example.com', firstName: 'Ben', lastName: 'Carter' }, { name: 'Carter Bikes', domain: 'carter-bikes.example.com' }, null],
    [
      { email: 'aisha@khan-studio.example.org', firstName: 'Aisha', lastName: 'Khan' },
      { name: 'Khan Design Studio', domain: 'khan-studio.example.org' },
      { subscriptionTier: 'business', maxWebsites: 50, maxConsentsPerMonth: 500_000 },
    ],
  ] as const) {
    const context = await browser.newContext();
    const created = await registerOwner(context.request, web.url, person);
    if (plan) await setOwnerPlan(admin.request, web.url, created.id, plan);
    others.push({ website: await addWebsite(context.request, web.url, site), perDay: 3 });
    await context.close();
  }
  const invited = await admin.request.post(`${web.url}/api/admin/users/invite`, { data: { email: 'lena@bakery-berlin.example.de', subscriptionTier: 'basic', maxWebsites: 3, maxConsentsPerMonth: 50_000 } });
  if (!invited.ok()) throw new Error(`POST /api/admin/users/invite answered ${invited.status()}`);

  const owned = await seedConsents(web, [
    { website: trattoria, perDay: 9 },
    { website: catering, perDay: 4 },
    { website: shop, perDay: 2 },
  ]);
  const elsewhere = await seedConsents(web, others, Date.now() - 1_000);
  await waitFor(async () => (await totalConsentsSeenBy(owner, web.url)) === owned.total, { timeoutMs: 60_000, message: `the owner's ${owned.total} consents in stats` });
  await waitFor(async () => (await totalConsentsSeenBy(admin, web.url)) === owned.total + elsewhere.total, { timeoutMs: 60_000, message: 'every consent in stats' });
  await waitFor(async () => (await newestConsentsSeenBy(owner, web.url)) === Math.min(1000, owned.total), { timeoutMs: 60_000, message: 'the consent records' });

  // Visits and banner impressions for Analytics and Recommendations; settings that give each website
  // something to recommend (the trattoria's and the shop's banners are often ignored, the catering
  // site keeps full IP addresses, the shop keeps data for 3 years; only the trattoria links its
  // privacy policy).
  const seeded = await seedAnalytics(web, [
    { website: trattoria, visitsPerDay: 8, consentsPerDay: 9, impressionsPerChoice: 1.85 },
    { website: catering, visitsPerDay: 3, consentsPerDay: 4, impressionsPerChoice: 1.3 },
    { website: shop, visitsPerDay: 2, consentsPerDay: 2, impressionsPerChoice: 2.2 },
  ]);
  await changeSettings(owner, web.url, trattoria.id, { privacyPolicyUrl: 'https://trattoria-roma.example.com/privacy' });
  await changeSettings(owner, web.url, catering.id, { ipAddressMode: 'full' });
  await changeSettings(owner, web.url, shop.id, { retentionMonths: 36 });
  for (const website of [trattoria, catering, shop]) {
    await waitFor(async () => (await pageviewsSeenBy(owner, web.url, website.id)) === seeded.get(website.id), {
      timeoutMs: 60_000,
      message: `the page views of ${website.name} in analytics`,
    });
  }
  for (const website of [trattoria, shop]) {
    await waitFor(async () => (await recommendationsSeenBy(owner, web.url, website.id)).includes('banner-ignored'), {
      timeoutMs: 60_000,
      message: `the banner impressions of ${website.name} in the recommendation report`,
    });
  }

  // Two earlier exports for Recent Exports.
  for (const query of ['format=csv', `format=json&websiteId=${trattoria.id}`]) {
    const exported = await owner.request.get(`${web.url}/api/export/consents?${query}`);
    if (!exported.ok()) throw new Error(`GET /api/export/consents?${query} answered ${exported.status()}`);
    await exported.body();
  }
  return { owner, admin };
}

interface Problem {
  readonly screen: string;
  readonly problem: string;
}

/** Closes the toasts a screen's action raised (they would cover what the picture is about). */
async function closeToasts(page: Page): Promise<void> {
  const toasts = page.getByRole('region', { name: /Notifications/ }).getByRole('button', { name: 'Close' });
  while ((await toasts.count()) > 0) await toasts.first().click();
}

async function capture(page: Page, screen: Screen, viewport: ViewportName, baseUrl: string): Promise<Problem[]> {
  await page.goto(`${baseUrl}${screen.path}`);
  await screen.ready(page);
  await screen.prepare?.(page, viewport);
  // By text, not role: an open menu or dialog hides the rest of the page from the accessibility tree.
  await waitFor(async () => (await page.getByText('Loading...', { exact: true }).filter({ visible: true }).count()) === 0, {
    timeoutMs: 15_000,
    message: `${screen.name} to finish loading`,
  });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const problems: Problem[] = [];
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) problems.push({ screen: `${viewport}/${screen.name}`, problem: `scrolls sideways by ${overflow}px` });
  if (!screen.viewportOnly) {
    // A viewport as tall as the page, rather than a full-page capture: fixed and sticky parts (the
    // sidebar, the top bar) are then drawn where a visitor sees them, not stuck at one scroll position.
    await page.evaluate(() => window.scrollTo(0, 0));
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewports[viewport].width, height: Math.max(viewports[viewport].height, height) });
  }
  await page.screenshot({ path: `${screensDir}${viewport}/${screen.name}.png` });
  return problems;
}

async function main(): Promise<void> {
  const wanted = new Set(process.argv.slice(2));
  const web = await startWebSystem('web_screens');
  const browser = await launchChromium();
  const problems: Problem[] = [];
  try {
    const { owner, admin } = await seed(web, browser);
    const storage = { owner: await owner.storageState(), admin: await admin.storageState() };
    for (const [viewport, size] of Object.entries(viewports) as [ViewportName, (typeof viewports)[ViewportName]][]) {
      await mkdir(`${screensDir}${viewport}`, { recursive: true });
      for (const viewer of ['visitor', 'owner', 'admin'] as const) {
        const context = await browser.newContext({
          viewport: size,
          deviceScaleFactor: 1,
          isMobile: viewport === 'phone',
          hasTouch: viewport === 'phone',
          reducedMotion: 'reduce',
          ...(viewer === 'visitor' ? {} : { storageState: storage[viewer] }),
        });
        for (const screen of screens.filter((item) => item.viewer === viewer && (!item.only || item.only === viewport))) {
          if (wanted.size > 0 && !wanted.has(screen.name)) continue;
          const page = await context.newPage();
          problems.push(...(await capture(page, screen, viewport, web.url)));
          console.log(`  ${viewport}/${screen.name}.png`);
          await page.close();
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await web.stop();
  }
  if (problems.length > 0) {
    for (const { screen, problem } of problems) console.error(`${screen}: ${problem}`);
    process.exitCode = 1;
  }
}

await main();
