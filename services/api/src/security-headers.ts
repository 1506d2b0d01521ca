// Security headers (@fastify/helmet) for the web app and the api, never the public edge that other
// websites load (helmet is registered inside the api's and web app's plugin contexts, not at the root).
// What the Content-Security-Policy allows and why: docs/security.md, "Security headers".
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
