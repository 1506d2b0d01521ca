// The request helper's contract (spec section 7): cookies always sent, JSON bodies typed as JSON,
// and non-OK answers raised as `${status}: ${body or status text}`.
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '../test/render';
import { apiRequest, getErrorCode, getErrorStatus, getJson, getJsonOrNull, getServerMessage } from './api';

describe('apiRequest', () => {
  it('sends credentials and a JSON body with a JSON content type', async () => {
    const { fetchStub } = stubFetch({ 'POST /api/websites': () => jsonResponse({}) });
    await apiRequest('POST', '/api/websites', { name: 'Shop' });
    const init = fetchStub.mock.calls[0]?.[1];
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Shop"}',
    });
  });

  it('raises status and body text for a non-OK answer', async () => {
    stubFetch({ 'GET /api/websites': () => new Response('Website limit reached', { status: 403 }) });
    await expect(getJson('/api/websites')).rejects.toThrow('403: Website limit reached');
  });

  it('falls back to the status text when the body is empty', async () => {
    stubFetch({ 'GET /api/websites': () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    await expect(getJson('/api/websites')).rejects.toThrow('500: Internal Server Error');
  });
});

describe('getJsonOrNull', () => {
  it('reads 401 as nobody signed in', async () => {
    stubFetch({ 'GET /api/auth/user': () => new Response('', { status: 401 }) });
    await expect(getJsonOrNull('/api/auth/user')).resolves.toBeNull();
  });

  it('still raises other failures', async () => {
    stubFetch({ 'GET /api/auth/user': () => new Response('down', { status: 503 }) });
    await expect(getJsonOrNull('/api/auth/user')).rejects.toThrow('503: down');
  });
});

describe('reading a failure', () => {
  it.each([
    ['403: {"error":{"code":"WEBSITE_LIMIT_REACHED","message":"Website limit reached"}}', 'Website limit reached'],
    ['401: {"success":false,"error":"Invalid credentials"}', 'Invalid credentials'],
    ['400: {"message":"Bad domain"}', 'Bad domain'],
    ['500: plain text', 'plain text'],
  ])('%s → %s', (message, expected) => {
    expect(getServerMessage(new Error(message))).toBe(expected);
  });

  it('finds the api error code', () => {
    expect(getErrorCode(new Error('403: {"error":{"code":"WEBSITE_LIMIT_REACHED","message":"Website limit reached"}}'))).toBe('WEBSITE_LIMIT_REACHED');
    expect(getErrorCode(new Error('401: {"success":false,"error":"Invalid credentials"}'))).toBeNull();
    expect(getErrorCode(new Error('500: plain text'))).toBeNull();
    expect(getErrorCode('not an error')).toBeNull();
  });

  it('finds the status in the message', () => {
    expect(getErrorStatus(new Error('403: Website limit reached'))).toBe(403);
    expect(getErrorStatus(new Error('Failed to fetch'))).toBeNull();
  });
});
