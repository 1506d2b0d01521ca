// identify.js's email rule against the events package's, and widget.js's side of identification: when
// it adds identify.js, what it hands it, and the Consentry.identify stub. (The capture itself runs in
// real Chromium: identify.e2e.test.ts.)
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailCorpus } from '@consentry/events/testing';
import { normaliseEmail as normaliseInEvents } from '@consentry/events';
import { normaliseEmail, startIdentify, type IdentifyBridge } from './identify';
import { UUID_PATTERN } from './ids';
import { buildIdentify } from './payloads';
import { button, CONFIG, EMBED_CODE, HOST, openPage, settle, type TestPage } from './page.test-helper';
import { startWidget } from './widget';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('normaliseEmail', () => {
  it('agrees with the events package (what ingest accepts) on every case', () => {
    const cases = [
      'ada@example.com',
      ' Ada.Lovelace@Example.COM ',
      'ada+leads@sub.example.co.uk',
      'ÄDA@example.com',
      'ada@xn--bcher-kva.example',
      'ada@example',
      'ada@@example.com',
      'a b@example.com',
      'ada@exa_mple.com',
      'ada@-example.com',
      'ada@example-.com',
      'ada@example.c',
      'ada@example.c0m',
      'ada@.example.com',
      '@example.com',
      'ada@',
      '',
      '   ',
      'ada@example.com\nbcc@example.com',
      'x'.repeat(64) + '@example.com',
      'x'.repeat(65) + '@example.com',
      'ada@' + 'a'.repeat(63) + '.com',
      'ada@' + 'a'.repeat(64) + '.com',
      'ada@' + ('a'.repeat(60) + '.').repeat(4) + 'com',
      ...emailCorpus,
    ];
    for (const raw of cases) expect({ raw, got: normaliseEmail(raw) }).toEqual({ raw, got: normaliseInEvents(raw) });
    expect(normaliseEmail(' Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
    for (const notText of [undefined, null, 42, {}, ['ada@example.com']]) expect(normaliseEmail(notText)).toBeNull();
  });

  it('agrees with the events package on generated addresses of every awkward character', () => {
    // Characters each rule treats specially, so generated strings sit on the rules' edges.
    const awkward = ['a', 'Z', '0', '.', '@', '-', '_', '+', '"', '<', '>', '(', ' ', '\t', '\u00e4', '\u00a9', '\u200b', '\u202e', '\uff21', '\ud83d\ude00', '\ud800', 'x', 'n', '[', ']', "'"];
    const part = fc.array(fc.constantFrom(...awkward), { maxLength: 12 }).map((chars) => chars.join(''));
    const tld = fc.constantFrom('com', 'c', 'xn--p1ai', '\u00e4\u00e4', 'c0m', '');
    const address = fc.tuple(part, part, part, tld).map(([local, label, sub, top]) => `${local}@${sub}.${label}.${top}`.replace(/\.\./g, '.'));
    fc.assert(
      fc.property(fc.oneof(address, part), (raw) => {
        expect({ raw, got: normaliseEmail(raw) }).toEqual({ raw, got: normaliseInEvents(raw) });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the identify request', () => {
  it('has the fields of docs/identification.md, in its order, with name and company trimmed and clipped', () => {
    // A path, not a URL object: in the happy-dom environment the global URL is the simulated browser's.
    const doc = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/identification.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Ingest: `POST /api/collect/identify`'));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const fields = Array.from(block.matchAll(/"(\w+)":/g), (m) => m[1]);
    const body = buildIdentify({ embedCode: 'emb', visitorId: 'v', consentEventId: 'c' }, 'form', 'ada@example.com', '  Ada ', '   ');
    expect(fields.length).toBeGreaterThan(5);
    expect(Object.keys(body)).toEqual(fields);
    expect(body).toMatchObject({ source: 'form', email: 'ada@example.com', name: 'Ada', company: null, pageUrl: 'https://shop.example.com/' });
    expect(body.eventId).toMatch(UUID_PATTERN);
    expect(buildIdentify({ embedCode: 'e', visitorId: 'v', consentEventId: 'c' }, 'call', 'a@b.co', 'x'.repeat(300), null).name).toHaveLength(200);
  });
});

const EVENT_ID = '3e8b02e5-0dce-4ce7-83e3-8bb264b8ba17';
const IDENTIFYING = {
  ...CONFIG,
  purposes: ['preferences', 'analytics', 'marketing', 'identification'],
  identification: { forms: 'all', script: '/identify.js' },
};
const OFFERED = IDENTIFYING.purposes;
const granted = (identification: boolean) => ({ preferences: true, analytics: true, marketing: true, identification });

/** A page whose visitor chose before (`choice`, stored), on a website offering identification. */
function pageWithChoice(choice: Record<string, unknown> | null, config: Record<string, unknown> = IDENTIFYING): TestPage {
  const page = openPage({ config });
  if (choice) {
    page.win.localStorage.setItem(
      `consentry:choice:${EMBED_CODE}`,
      JSON.stringify({ offered: OFFERED, policyVersion: '3', decidedAt: new Date().toISOString(), ...choice }),
    );
  }
  return page;
}

async function start(page: TestPage): Promise<void> {
  await startWidget(page.win, page.doc.querySelector('script[src$="widget.js"]'));
  await settle();
}

const identifyScript = (page: TestPage) =>
  page.doc.querySelector<HTMLScriptElement & { consentry?: IdentifyBridge }>(`script[src="${HOST}/identify.js"]`);

const api = (page: TestPage) => page.win.Consentry as NonNullable<Window['Consentry']>;

describe('widget.js adds identify.js', () => {
  it('on load, when the stored choice allowed identification by Accept All or a custom choice', async () => {
    for (const method of ['accept_all', 'custom']) {
      const page = pageWithChoice({ purposes: granted(true), method, eventId: EVENT_ID });
      await start(page);
      const script = identifyScript(page);
      expect(script).not.toBeNull();
      const [allowingEventId, identification, , calls, embedCode, visitorId] = script?.consentry as IdentifyBridge;
      expect(allowingEventId()).toBe(EVENT_ID);
      expect(identification).toEqual({ forms: 'all', script: '/identify.js' });
      expect(calls).toEqual([]);
      expect(embedCode).toBe(EMBED_CODE);
      expect(visitorId()).toMatch(UUID_PATTERN);
      vi.unstubAllGlobals();
    }
  });

  it('never for a region default, a choice without identification, one stored without its event id, or a host offering no capture', async () => {
    // Each page made when its turn comes: a page points the browser globals at itself.
    const never = [
      () => pageWithChoice({ purposes: granted(true), method: 'jurisdiction_default', eventId: EVENT_ID }),
      () => pageWithChoice({ purposes: granted(false), method: 'custom', eventId: EVENT_ID }),
      () => pageWithChoice({ purposes: granted(false), method: 'reject_all', eventId: EVENT_ID }),
      () => pageWithChoice({ purposes: granted(true), method: 'accept_all' }),
      () => pageWithChoice({ purposes: granted(true), method: 'accept_all', eventId: EVENT_ID }, { ...IDENTIFYING, identification: undefined }),
    ];
    for (const open of never) {
      const page = open();
      await start(page);
      // Started: the stored choice is in force (the banner is not asking).
      expect(api(page).getChoice()).not.toBeNull();
      expect(identifyScript(page)).toBeNull();
      expect(await api(page).identify('ada@example.com')).toBe(false);
      vi.unstubAllGlobals();
    }
  });

  it('at once on Accept All, naming the new consent; a withdrawal answers no at once', async () => {
    const page = pageWithChoice(null);
    await start(page);
    expect(identifyScript(page)).toBeNull();
    button(page, 'Accept All').click();
    await settle();
    const [consent] = page.collected('consent');
    const [allowingEventId] = identifyScript(page)?.consentry as IdentifyBridge;
    expect(allowingEventId()).toBe(consent?.eventId);
    api(page).open();
    button(page, 'Reject All').click();
    expect(allowingEventId()).toBeUndefined();
    // Added once: a new grant does not add it again.
    api(page).open();
    button(page, 'Accept All').click();
    await settle();
    expect(allowingEventId()).toBe(page.collected('consent')[2]?.eventId);
    expect(page.doc.querySelectorAll('script[src$="identify.js"]')).toHaveLength(1);
  });
});

describe('Consentry.identify', () => {
  it('waits for identify.js, which takes the queued calls over and answers them', async () => {
    const page = pageWithChoice({ purposes: granted(true), method: 'accept_all', eventId: EVENT_ID });
    await start(page);
    const first = api(page).identify(' Ada@Example.com ', { name: 'Ada Lovelace', company: 'Engines' });
    const invalid = api(page).identify('ada@');
    // As identify.js does when it runs.
    startIdentify(page.win, identifyScript(page)?.consentry as IdentifyBridge);
    expect(await first).toBe(true);
    expect(await invalid).toBe(false);
    expect(await api(page).identify('ada@example.com')).toBe(true);
    await settle();
    expect(page.collected('identify')).toEqual([
      expect.objectContaining({ source: 'call', email: 'ada@example.com', name: 'Ada Lovelace', company: 'Engines', consentEventId: EVENT_ID }),
    ]);
  });

  it('answers false, then and later, when identify.js cannot be loaded', async () => {
    const page = pageWithChoice({ purposes: granted(true), method: 'accept_all', eventId: EVENT_ID });
    await start(page);
    const queued = api(page).identify('ada@example.com');
    identifyScript(page)?.dispatchEvent(new page.win.Event('error'));
    expect(await queued).toBe(false);
    expect(await api(page).identify('ada@example.com')).toBe(false);
    expect(page.collected('identify')).toEqual([]);
  });
});
