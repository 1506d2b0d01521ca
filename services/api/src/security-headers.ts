// Security headers (@fastify/helmet) for what this origin serves to its own users: the web app and the
// api. The public edge (services/ingest: /widget.js, the widget's config and logo, the collection
// endpoints) is loaded by other websites, so it is left out on purpose: helmet is registered inside
// the api's and the web app's own plugin contexts, never at the root, and a
// Cross-Origin-Resource-Policy of same-origin can never reach the widget.
//
// The Content-Security-Policy is what the built app needs and nothing more:
// - scripts and stylesheets from this origin only; no inline script at all;
// - inline <style> elements only with the per-response nonce. Two libraries insert them at run time:
//   react-remove-scroll (Radix dialogs, menus and selects; the content changes with the scrollbar's
//   width, so no hash can allow it) and Radix Select (its viewport's rules). web-app.ts hands the
//   nonce to the page in `<meta property="csp-nonce">`, and the app passes it on (web/src/lib/csp-nonce.ts).
//   Inline style *attributes* set through the DOM (React's `style`, positioning of popovers, Chart.js)
//   are not governed by CSP, so no 'unsafe-inline' is needed;
// - images from this origin and data: URLs (logos and the landing page's pictures are stored as data
//   URLs, spec section 3);
// - frame-ancestors 'none': no other page may frame ours (clickjacking). The one exception is the
//   public landing page `/`, which the Website Editor previews in a frame of our own origin, so it
//   allows 'self';
// - upgrade-insecure-requests and HSTS only when PUBLIC_URL is https: on plain http (a LAN address,
//   http://localhost) they would send the app's own requests to an https port nobody listens on.
//
// Referrer-Policy is same-origin: no address of the app leaves for another site (links to owners'
// websites and privacy policies), as with helmet's no-referrer, but the app's own requests keep
// theirs. With no-referrer, browsers send `Origin: null` on a plain HTML form POST, which the api's
// Origin check would refuse.
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { IncomingMessage } from 'node:http';

export interface SecurityHeadersOptions {
  /** PUBLIC_URL: https turns on HSTS and upgrade-insecure-requests. */
  readonly publicUrl: string;
  /** Per-response nonces for inline <style> elements (the web app's index.html). */
  readonly nonces?: boolean;
}

/** The landing page, framed by the Website Editor's preview (same origin only). */
function isLandingPage(request: IncomingMessage): boolean {
  return (request.url ?? '').split('?')[0] === '/';
}

export function securityHeaders({ publicUrl, nonces = false }: SecurityHeadersOptions): FastifyHelmetOptions {
  const https = publicUrl.startsWith('https:');
  return {
    enableCSPNonces: nonces,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: [(request) => (isLandingPage(request) ? "'self'" : "'none'")],
        frameSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    referrerPolicy: { policy: 'same-origin' },
    // Old browsers without frame-ancestors: the same-origin preview of `/` must still load.
    xFrameOptions: { action: 'sameorigin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  };
}
