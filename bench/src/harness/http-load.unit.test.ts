import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFreshUuidRequests, serialiseRequest } from './http-load';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createFreshUuidRequests', () => {
  const eventId = randomUUID();
  const visitorId = randomUUID();
  const template = serialiseRequest({
    method: 'POST',
    host: '127.0.0.1:3000',
    path: '/api/collect/consent',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ eventId, visitorId, purposes: { analytics: true }, pageUrl: 'https://www.shop.example.test/ü' }),
  });

  it('makes copies of the template with fresh UUIDs in their places and nothing else changed', () => {
    const next = createFreshUuidRequests(template, [eventId, visitorId]);
    const [first, second] = [next(), next()];
    for (const request of [first, second]) {
      expect(request.length).toBe(template.length);
      const text = request.toString('utf8');
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { eventId: string; visitorId: string; pageUrl: string };
      expect(body.eventId).toMatch(uuidPattern);
      expect(body.visitorId).toMatch(uuidPattern);
      expect(body.pageUrl).toBe('https://www.shop.example.test/ü');
      expect(text.replace(body.eventId, eventId).replace(body.visitorId, visitorId)).toBe(template.toString('utf8'));
    }
    expect(new Set([first!.toString(), second!.toString(), template.toString()]).size).toBe(3);
  });

  it('refuses a UUID the template does not hold exactly once', () => {
    expect(() => createFreshUuidRequests(template, [randomUUID()])).toThrow('must be a UUID found exactly once in the template');
    const twice = serialiseRequest({ method: 'POST', host: 'h', path: '/', body: `${eventId} ${eventId}` });
    expect(() => createFreshUuidRequests(twice, [eventId])).toThrow('exactly once');
  });
});
