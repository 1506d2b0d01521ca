// One test's page must not reach into the next: a consent the first test left failing is retried on
// the outbox's backoff timer (1-2 s), and that retry must not land in the second test's fetch.
import { describe, expect, it } from 'vitest';
import { createOutbox } from './outbox';
import { HOST, openPage, settle } from './page.test-helper';

const leftBehind = '11111111-1111-4111-8111-111111111111';

describe('a page closed at the end of its test', () => {
  it('leaves a consent queued after a failed send', async () => {
    const page = openPage();
    page.collectStatus = 503;
    createOutbox(HOST, 'consentry:queue:isolation').push('consent', { eventId: leftBehind } as never, true);
    await settle();
    expect(page.collected('consent').map((body) => body.eventId)).toEqual([leftBehind]);
  });

  it('does not retry it into the next test, even after the longest first backoff', async () => {
    const page = openPage();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(page.requests).toEqual([]);
  });
});
