import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UUID_PATTERN } from './ids';
import { button, EMBED_CODE, HOST, openPage, settle, type TestPage } from './page.test-helper';
import { protocolEnum } from './protocol.test-helper';
import { startWidget } from './widget';

/** IntersectionObserver stand-in: records what is observed; tests decide what becomes visible. */
class FakeObserver {
  static all: FakeObserver[] = [];
  observed = new Set<Element>();
  constructor(readonly callback: (entries: Partial<IntersectionObserverEntry>[]) => void) {
    FakeObserver.all.push(this);
  }
  observe(el: Element): void {
    this.observed.add(el);
  }
  unobserve(el: Element): void {
    this.observed.delete(el);
  }
  disconnect(): void {
    this.observed.clear();
  }
  /** Reports `el` as visible, as the browser would while it is observed. */
  static show(el: Element): void {
    for (const o of FakeObserver.all) if (o.observed.has(el)) o.callback([{ target: el, isIntersecting: true }]);
  }
}

const BODY = `
  <a href="tel:+15551234567" id="call"><span>Call us</span></a>
  <a href="/about" id="about">About</a>
  <form data-consentry-contact id="contact"><textarea name="m"></textarea></form>
  <form id="newsletter"><input type="email" name="e"></form>
  <form id="search"><input type="search" name="q"></form>
  <div data-consentry-track="map" id="map"></div>
  <div data-consentry-track="hours" id="hours"></div>`;

const visibility = (page: TestPage, state: 'hidden' | 'visible'): void => {
  Object.defineProperty(page.doc, 'visibilityState', { value: state, configurable: true });
  page.doc.dispatchEvent(new page.win.Event('visibilitychange'));
};
const click = (page: TestPage, id: string): void => {
  page.doc.getElementById(id)?.dispatchEvent(new page.win.MouseEvent('click', { bubbles: true, cancelable: true }));
};
const submit = (page: TestPage, id: string): void => {
  page.doc.getElementById(id)?.dispatchEvent(new page.win.Event('submit', { bubbles: true, cancelable: true }));
};
const kinds = (page: TestPage): unknown[] => page.collected('engagement').map((e) => e.kind);

async function acceptedPage(): Promise<TestPage> {
  const page = openPage({ bodyHtml: BODY });
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  await startWidget(page.win, page.doc.querySelector('script[src$="widget.js"]'));
  await settle();
  button(page, 'Accept All').click();
  await settle();
  return page;
}

beforeEach(() => {
  FakeObserver.all = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('before any choice', () => {
  it('reports no engagement and installs no observer', async () => {
    const page = openPage({ bodyHtml: BODY });
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    await startWidget(page.win, page.doc.querySelector('script[src$="widget.js"]'));
    await settle();
    click(page, 'call');
    submit(page, 'contact');
    visibility(page, 'hidden');
    await settle();
    expect(page.requests.map((r) => r.url)).toEqual([
      `${HOST}/api/widget/config/${EMBED_CODE}?lang=en`,
      `${HOST}/api/widget/rule/${EMBED_CODE}`,
      `${HOST}/api/collect/impression`,
    ]);
    expect(page.beacons).toEqual([]);
    expect(FakeObserver.all).toEqual([]);
  });
});

describe('after acceptance', () => {
  it('reports tap_to_call for clicks inside a tel: link, not for other links', async () => {
    const page = await acceptedPage();
    page.doc.querySelector('#call span')?.dispatchEvent(new page.win.MouseEvent('click', { bubbles: true }));
    click(page, 'about');
    await settle();
    const [pageview] = page.collected('pageview');
    expect(page.collected('engagement')).toEqual([
      {
        embedCode: EMBED_CODE,
        eventId: expect.stringMatching(UUID_PATTERN),
        visitorId: pageview?.visitorId,
        pageviewId: pageview?.pageviewId,
        kind: 'tap_to_call',
      },
    ]);
  });

  it('reports contact_form_submit for marked forms and forms with an email field only', async () => {
    const page = await acceptedPage();
    submit(page, 'contact');
    submit(page, 'newsletter');
    submit(page, 'search');
    await settle();
    expect(kinds(page)).toEqual(['contact_form_submit', 'contact_form_submit']);
  });

  it('reports map and hours views the first time each becomes visible', async () => {
    const page = await acceptedPage();
    const map = page.doc.getElementById('map') as Element;
    const hours = page.doc.getElementById('hours') as Element;
    FakeObserver.show(map);
    FakeObserver.show(map);
    FakeObserver.show(hours);
    await settle();
    expect(kinds(page)).toEqual(['location_map_view', 'opening_hours_view']);
  });

  it('sends only kinds the protocol names', async () => {
    const page = await acceptedPage();
    click(page, 'call');
    submit(page, 'contact');
    FakeObserver.show(page.doc.getElementById('map') as Element);
    FakeObserver.show(page.doc.getElementById('hours') as Element);
    await settle();
    expect(kinds(page)).toEqual(protocolEnum('engagement', 'kind'));
  });

  it('beacons pagehide with the visible time when the page is hidden, and the running total after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-01T12:00:00.000Z'));
    const page = await acceptedPage();
    vi.setSystemTime(new Date('2025-06-01T12:00:42.000Z'));
    visibility(page, 'hidden');
    vi.setSystemTime(new Date('2025-06-01T12:10:00.000Z'));
    visibility(page, 'visible');
    vi.setSystemTime(new Date('2025-06-01T12:10:08.000Z'));
    visibility(page, 'hidden');

    const pageviewId = page.collected('pageview')[0]?.pageviewId;
    expect(page.beacons).toEqual([
      {
        url: `${HOST}/api/collect/pagehide`,
        body: {
          embedCode: EMBED_CODE,
          eventId: expect.stringMatching(UUID_PATTERN),
          visitorId: page.collected('pageview')[0]?.visitorId,
          pageviewId,
          visibleMs: 42_000,
        },
      },
      { url: `${HOST}/api/collect/pagehide`, body: expect.objectContaining({ pageviewId, visibleMs: 50_000 }) },
    ]);
    expect(page.beacons[0]?.body.eventId).not.toBe(page.beacons[1]?.body.eventId);
  });

  it('queues pagehide through fetch when the browser refuses the beacon', async () => {
    const page = await acceptedPage();
    Object.defineProperty(page.win.navigator, 'sendBeacon', { value: () => false, configurable: true });
    visibility(page, 'hidden');
    await settle();
    expect(page.collected('pagehide')).toHaveLength(1);
  });

  it('counts SPA navigations as page views, closing the previous one', async () => {
    const page = await acceptedPage();
    const first = page.collected('pageview')[0];
    page.win.history.pushState({}, '', '/menu');
    page.doc.title = 'Menu';
    await settle();
    const views = page.collected('pageview');
    expect(views).toHaveLength(2);
    expect(views[1]).toMatchObject({ url: 'https://shop.example.com/menu', referrer: 'https://shop.example.com/', title: 'Menu' });
    expect(views[1]?.pageviewId).not.toBe(first?.pageviewId);
    expect(page.collected('pagehide')).toEqual([expect.objectContaining({ pageviewId: first?.pageviewId })]);

    // A jump to an anchor is the same page.
    page.win.history.pushState({}, '', '/menu#desserts');
    await settle();
    expect(page.collected('pageview')).toHaveLength(2);
  });
});
