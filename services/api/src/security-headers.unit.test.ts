// The helmet options: transport-security rules only when the app is served over https, and the one
// frame-ancestors exception (the landing page, for the Website Editor's same-origin preview).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';

type DirectiveValue = string | ((request: IncomingMessage, response: ServerResponse) => string);

function directivesOf(publicUrl: string): Record<string, DirectiveValue[]> {
  const policy = securityHeaders({ publicUrl }).contentSecurityPolicy;
  if (typeof policy !== 'object' || !policy.directives) throw new Error('no CSP directives');
  return Object.fromEntries(Object.entries(policy.directives).map(([name, values]) => [name, [...((values ?? []) as Iterable<DirectiveValue>)]]));
}

describe('when PUBLIC_URL is https', () => {
  it('sends HSTS and upgrades insecure requests', () => {
    expect(securityHeaders({ publicUrl: 'https://consent.example.com' }).strictTransportSecurity).toEqual({ maxAge: 31_536_000, includeSubDomains: false });
    expect(directivesOf('https://consent.example.com')).toHaveProperty('upgradeInsecureRequests', []);
  });
});

describe('when PUBLIC_URL is plain http (localhost, a LAN address)', () => {
  it('sends neither, so the app’s own requests are not sent to an https port', () => {
    expect(securityHeaders({ publicUrl: 'http://192.168.1.20:3000' }).strictTransportSecurity).toBe(false);
    expect(directivesOf('http://192.168.1.20:3000')).not.toHaveProperty('upgradeInsecureRequests');
  });
});

describe('frame-ancestors', () => {
  const [frameAncestors] = directivesOf('http://localhost:3000').frameAncestors as [(request: IncomingMessage, response: ServerResponse) => string];
  const forUrl = (url: string) => frameAncestors({ url } as IncomingMessage, {} as ServerResponse);

  it.each([['/'], ['/?preview=1']])('lets our own origin frame the landing page %s', (url) => {
    expect(forUrl(url)).toBe("'self'");
  });

  it.each([['/dashboard'], ['/admin/login'], ['/api/websites'], ['//']])('lets nobody frame %s', (url) => {
    expect(forUrl(url)).toBe("'none'");
  });
});
