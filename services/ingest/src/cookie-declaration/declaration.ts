// A website's cookie declaration: every cookie and storage key the latest scan saw, by purpose, with
// who sets it and for how long, plus those the owner declared that the scan did not see. It follows the
// latest scan by construction (it is read from it), and is public: visitors and auditors read it.
import type { PurposeService, ScannedItem, ScannedPurpose } from '@consentry/events';

export interface DeclaredItem {
  readonly name: string;
  readonly kind: ScannedItem['kind'];
  readonly domain: string | null;
  readonly provider: string | null;
  readonly retention: string | null;
  readonly firstParty: boolean | null;
  /** Seen by the latest scan, or only declared by the owner. */
  readonly seen: boolean;
}

export interface DeclarationSection {
  readonly purpose: ScannedPurpose | 'unclassified';
  readonly title: string;
  readonly description: string;
  readonly items: readonly DeclaredItem[];
}

export interface CookieDeclaration {
  readonly companyName: string;
  readonly domain: string;
  /** When the latest scan finished; null before the first. */
  readonly scannedAt: string | null;
  readonly sections: readonly DeclarationSection[];
}

/** Our own words for each purpose, as a declaration explains it. */
const sectionTexts: Record<DeclarationSection['purpose'], { title: string; description: string }> = {
  necessary: { title: 'Necessary', description: 'Needed for the site to work and to remember your privacy choice. They are always on.' },
  preferences: { title: 'Preferences', description: 'Remember your settings, such as language or region, between visits. Only with your consent.' },
  analytics: { title: 'Analytics', description: 'Count visits and show how the site is used, so it can be improved. Only with your consent.' },
  marketing: { title: 'Marketing', description: 'Show relevant ads and measure how well they work, on this site and others. Only with your consent.' },
  unclassified: { title: 'Not yet classified', description: 'Found on the site and not yet assigned a purpose by its owner.' },
};

const order: DeclarationSection['purpose'][] = ['necessary', 'preferences', 'analytics', 'marketing', 'unclassified'];

export function buildCookieDeclaration(input: {
  companyName: string;
  domain: string;
  scannedAt: string | null;
  items: readonly ScannedItem[];
  services: readonly PurposeService[];
}): CookieDeclaration {
  const byPurpose = new Map<DeclarationSection['purpose'], DeclaredItem[]>(order.map((purpose) => [purpose, []]));
  const seen = new Set<string>();
  for (const item of input.items) {
    seen.add(item.name);
    byPurpose.get(item.purpose ?? 'unclassified')!.push({
      name: item.name,
      kind: item.kind,
      domain: item.domain || null,
      provider: item.platform ?? item.controller,
      retention: item.retention,
      firstParty: item.firstParty,
      seen: true,
    });
  }
  for (const service of input.services) {
    // Identification sets nothing a declaration lists by name.
    if (service.purpose === 'identification') continue;
    for (const cookie of service.cookies) {
      if (seen.has(cookie)) continue;
      seen.add(cookie);
      byPurpose.get(service.purpose)!.push({ name: cookie, kind: 'cookie', domain: null, provider: service.name, retention: null, firstParty: null, seen: false });
    }
  }
  return {
    companyName: input.companyName,
    domain: input.domain,
    scannedAt: input.scannedAt,
    sections: order
      .map((purpose) => ({ purpose, ...sectionTexts[purpose], items: byPurpose.get(purpose)!.sort((a, b) => a.name.localeCompare(b.name)) }))
      .filter((section) => section.items.length > 0),
  };
}

/** A cookie's own expiry (ISO) as a day; the database's retention as it says it. */
const formatRetention = (retention: string | null): string =>
  retention === null ? '—' : /^\d{4}-\d\d-\d\dT/.test(retention) ? `Until ${retention.slice(0, 10)}` : retention;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** The declaration as a self-contained HTML page; `embedded` leaves out the page's heading for an iframe. */
export function renderCookieDeclaration(declaration: CookieDeclaration, embedded: boolean): string {
  const e = escapeHtml;
  const when = declaration.scannedAt ? `Last checked by a cookie scan on ${declaration.scannedAt.slice(0, 10)}.` : 'The site has not been scanned yet.';
  const rows = (items: readonly DeclaredItem[]) =>
    items
      .map(
        (item) =>
          `<tr><td><code>${e(item.name)}</code></td><td>${e(item.provider ?? '—')}</td><td>${e(item.kind === 'cookie' ? 'Cookie' : item.kind)}</td>` +
          `<td>${e(item.domain ?? '—')}</td><td>${e(formatRetention(item.retention))}</td><td>${item.firstParty === null ? '—' : item.firstParty ? 'First party' : 'Third party'}</td>` +
          `<td>${item.seen ? 'Seen' : 'Declared'}</td></tr>`,
      )
      .join('');
  const sections = declaration.sections
    .map(
      (section) =>
        `<section><h2>${e(section.title)}</h2><p>${e(section.description)}</p>` +
        `<table><thead><tr><th>Name</th><th>Provider</th><th>Type</th><th>Domain</th><th>Expiry</th><th>Party</th><th>Source</th></tr></thead>` +
        `<tbody>${rows(section.items)}</tbody></table></section>`,
    )
    .join('');
  const heading = embedded ? '' : `<h1>Cookies on ${e(declaration.domain)}</h1><p>${e(declaration.companyName)} uses the cookies and storage below.</p>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>Cookies on ${e(declaration.domain)}</title><style>` +
    'body{font:15px/1.5 system-ui,sans-serif;color:#111827;margin:16px;max-width:1000px}table{border-collapse:collapse;width:100%;margin:8px 0 24px}' +
    'th,td{border-bottom:1px solid #d1d5db;padding:6px 8px;text-align:left;vertical-align:top}th{font-size:13px;color:#374151}code{word-break:break-all}' +
    `</style></head><body>${heading}<p>${e(when)}</p>${sections || '<p>No cookies or storage keys are declared yet.</p>'}</body></html>`
  );
}
