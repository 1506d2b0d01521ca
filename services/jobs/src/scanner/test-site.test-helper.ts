// An owner's website for scanner tests, served on loopback under real host names (Chromium maps
// *.example.test to 127.0.0.1): www.shop.example.test and blog.shop.example.test are the site
// (domain shop.example.test); tracker.example.test, pixel.example.test and consent.example.test are
// third parties. It needs no Consentry product: banner.js is a stand-in for the widget with the same
// structure (a `consentry-widget` element with an open shadow root, `#b .a` holding Customize,
// Reject All, Accept All, Close — labelled in German, so tests prove the scanner clicks by position),
// which stores the choice and pushes gtag-style Consent Mode commands. The pages:
//   /            banner; analytics.js sets _ga and _ga_XYZ123 WITHOUT waiting for consent (the
//                violation); marketing.js sets _fbp, a sessionStorage key and calls a pixel host only
//                after Accept All (correctly blocked); an iframe from tracker.example.test sets IDE;
//                an image on 127.0.0.1, a redirect to it and a WebSocket to it (the SSRF guard must
//                refuse all three) beside a WebSocket to the site itself;
//                localStorage cart_id (unknown to the database). Every page sets PHPSESSID (HttpOnly).
//   /about       banner, analytics, marketing; links to /no-banner
//   /no-banner   no banner, no scripts
//   /hidden      banner and analytics; linked only from the sitemap (an index → sitemap-pages.xml)
//   blog.shop…/  banner, analytics, marketing
// `slowMs` delays every page; `hangExtraPages` never answers /p/… (deadline tests: the home page
// finishes, the next page is still loading when the deadline comes); `extraPages` adds /p/1… linked
// from the home page.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

export const siteDomain = 'shop.example.test';

export interface TestSiteOptions {
  slowMs?: number;
  hangExtraPages?: boolean;
  extraPages?: number;
  /** A fixed site: analytics.js waits for Accept All like marketing.js, and the iframe too. */
  fixed?: boolean;
}

export interface TestSite {
  port: number;
  /** http://www.shop.example.test:PORT */
  origin: string;
  url(path: string, host?: string): string;
  /** "host path" of every request the server received, in order. */
  requests: string[];
  close(): Promise<void>;
}

const choiceKey = 'consentry:choice:test';

const bannerJs = (port: number): string => `(function () {
  var KEY = '${choiceKey}';
  window.dataLayer = window.dataLayer || [];
  function gtag() { dataLayer.push(arguments); }
  function signals(on) {
    var v = on ? 'granted' : 'denied';
    return { ad_storage: v, analytics_storage: v, ad_user_data: v, ad_personalization: v };
  }
  gtag('consent', 'default', signals(false));
  var stored = localStorage.getItem(KEY);
  if (stored) { gtag('consent', 'update', signals(stored === 'accepted')); return; }
  var host = document.createElement('consentry-widget');
  var root = host.attachShadow({ mode: 'open' });
  var banner = document.createElement('div');
  banner.id = 'b';
  banner.innerHTML = '<div class="i"><h2>Cookies?</h2></div><div class="a"></div>';
  var actions = banner.querySelector('.a');
  var labels = ['Anpassen', 'Alle ablehnen', 'Alle akzeptieren', 'Schließen'];
  var buttons = labels.map(function (label) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    actions.appendChild(b);
    return b;
  });
  buttons[3].hidden = true;
  function choose(choice) {
    localStorage.setItem(KEY, choice);
    document.cookie = 'consentry_test=' + choice + ';path=/;max-age=31536000';
    gtag('consent', 'update', signals(choice === 'accepted'));
    fetch('http://consent.example.test:${port}/collect', { method: 'POST', body: choice, keepalive: true, mode: 'no-cors' }).catch(function () {});
    host.remove();
  }
  buttons[1].addEventListener('click', function () { choose('rejected'); });
  buttons[2].addEventListener('click', function () { choose('accepted'); });
  root.appendChild(banner);
  // The real widget waits for its config before it shows.
  function mount() { setTimeout(function () { document.body.prepend(host); }, 100); }
  if (document.body) mount(); else document.addEventListener('DOMContentLoaded', mount);
})();
`;

const analyticsJs = (fixed: boolean): string => `(function () {
  ${fixed ? `if (localStorage.getItem('${choiceKey}') !== 'accepted') return;` : ''}
  var domain = location.hostname.replace(/^(www|blog)\\./, '');
  var attributes = ';path=/;max-age=63072000;domain=' + domain;
  document.cookie = '_ga=GA1.1.123456.789' + attributes;
  document.cookie = '_ga_XYZ123=GS1.1.789.1' + attributes;
})();
`;

const marketingJs = (port: number): string => `(function () {
  if (localStorage.getItem('${choiceKey}') !== 'accepted') return;
  var domain = location.hostname.replace(/^(www|blog)\\./, '');
  document.cookie = '_fbp=fb.1.123.456;path=/;max-age=7776000;domain=' + domain;
  sessionStorage.setItem('mp_abc_mixpanel', '{}');
  new Image().src = 'http://pixel.example.test:${port}/tr?ev=PageView';
})();
`;

interface PageParts {
  title: string;
  banner?: boolean;
  analytics?: boolean;
  marketing?: boolean;
  body: string;
}

function html({ title, banner, analytics, marketing, body }: PageParts): string {
  const head = [
    banner ? '<script src="/banner.js"></script>' : '',
    analytics ? '<script src="/analytics.js"></script>' : '',
    marketing ? '<script src="/marketing.js"></script>' : '',
  ].join('');
  const cart = banner ? "<script>localStorage.setItem('cart_id', 'c-1')</script>" : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}${cart}</body></html>`;
}

export async function serveTestSite(options: TestSiteOptions = {}): Promise<TestSite> {
  const requests: string[] = [];
  let port = 0;
  const at = (host: string, path: string): string => `http://${host}:${port}${path}`;
  const www = `www.${siteDomain}`;
  const blog = `blog.${siteDomain}`;

  const pages = (): Record<string, string> => {
    const extra = Array.from({ length: options.extraPages ?? 0 }, (_, index) => `/p/${index + 1}`);
    const iframe = options.fixed
      ? ''
      : `<iframe src="${at('tracker.example.test', '/embed')}" title="video"></iframe>`;
    const result: Record<string, string> = {
      '/': html({
        title: 'Shop',
        banner: true,
        analytics: true,
        marketing: true,
        body: `<h1>Shop</h1><nav>
          <a href="/about">About</a> <a href="/about#team">Team</a> <a href="/terms.pdf">Terms</a>
          <a href="mailto:shop@example.test">Mail</a> <a href="${at('elsewhere.example.test', '/')}">Elsewhere</a>
          <a href="${at(blog, '/')}">Blog</a>
          ${extra.map((path) => `<a href="${path}">${path}</a>`).join(' ')}
        </nav>${iframe}
        <img src="${at('127.0.0.1', '/secret.gif')}" alt=""><img src="/redirect-to-secret" alt="">
        <script>
          new WebSocket('ws://${www}:${port}/live');
          new WebSocket('ws://127.0.0.1:${port}/ws-secret');
        </script>`,
      }),
      '/about': html({ title: 'About', banner: true, analytics: true, marketing: true, body: '<h1>About</h1><a href="/">Home</a> <a href="/no-banner">Plain</a>' }),
      '/no-banner': html({ title: 'Plain', body: '<h1>No banner here</h1><a href="/">Home</a>' }),
      '/hidden': html({ title: 'Hidden', banner: true, analytics: true, body: '<h1>Only in the sitemap</h1>' }),
    };
    for (const path of extra) result[path] = html({ title: path, banner: true, body: `<h1>${path}</h1><a href="/">Home</a>` });
    return result;
  };

  const send = (response: ServerResponse, status: number, type: string, body: string, headers: Record<string, string | string[]> = {}): void => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(body);
  };

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.push(`${host} ${path}`);
    const session = { 'set-cookie': `PHPSESSID=${randomUUID()}; Path=/; HttpOnly` };

    if (host === 'tracker.example.test' && path === '/embed') {
      send(response, 200, 'text/html', '<!doctype html><p>An embedded player</p>', { 'set-cookie': 'IDE=AHWqTUk; Path=/; Max-Age=33696000' });
      return;
    }
    if (host === 'pixel.example.test' || host === 'consent.example.test') {
      response.writeHead(204).end();
      return;
    }
    if (host !== www && host !== blog) {
      send(response, 404, 'text/plain', 'not found');
      return;
    }
    if (path === '/banner.js') return send(response, 200, 'text/javascript', bannerJs(port));
    if (path === '/analytics.js') return send(response, 200, 'text/javascript', analyticsJs(options.fixed ?? false));
    if (path === '/marketing.js') return send(response, 200, 'text/javascript', marketingJs(port));
    if (path === '/redirect-to-secret') {
      response.writeHead(302, { location: at('127.0.0.1', '/secret-redirected') }).end();
      return;
    }
    if (host === blog) {
      if (path !== '/') return send(response, 404, 'text/plain', 'not found');
      const body = html({ title: 'Blog', banner: true, analytics: true, marketing: true, body: `<h1>Blog</h1><a href="${at(www, '/')}">Shop</a>` });
      return send(response, 200, 'text/html; charset=utf-8', body, session);
    }
    if (path === '/sitemap.xml') {
      const index = `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${at(www, '/sitemap-pages.xml')}</loc></sitemap></sitemapindex>`;
      return send(response, 200, 'application/xml', index);
    }
    if (path === '/sitemap-pages.xml') {
      const urls = [at(www, '/'), at(www, '/about'), at(www, '/hidden'), at('elsewhere.example.test', '/x')];
      const set = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((url) => `<url><loc>${url}</loc></url>`).join('')}</urlset>`;
      return send(response, 200, 'application/xml', set);
    }
    const page = pages()[path];
    if (page === undefined) return send(response, 404, 'text/html', '<!doctype html><p>Not found</p>', session);
    const reply = (): void => send(response, 200, 'text/html; charset=utf-8', page, session);
    if (options.hangExtraPages && path.startsWith('/p/')) return;
    if (options.slowMs) setTimeout(reply, options.slowMs);
    else reply();
  };

  const server = createServer(handle);
  // WebSocket handshakes are logged, then refused: enough to show which ones got through.
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    requests.push(`${host} ${new URL(request.url ?? '/', 'http://x').pathname}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: at(www, ''),
    url: (path, host = www) => at(host, path),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The allowance tests pass: *.example.test on loopback, nothing else private. */
export const allowTestHosts = (host: string, address: string): boolean => host.endsWith('.example.test') && address === '127.0.0.1';

/** The lookup tests pass: *.example.test is loopback (as Chromium's host-resolver rule maps it). */
export const testLookup = async (host: string): Promise<{ address: string; family: number }[]> =>
  host.endsWith('.example.test') ? [{ address: '127.0.0.1', family: 4 }] : [];
