// The event store against the machine's real Postgres: append-only, idempotency, optimistic
// concurrency, validation, and gap-safe reading under concurrent writers.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { consentAppendRequest, consentEvent } from '../testing/consent-events';
import {
  appendToStream,
  appendUnversioned,
  decideOnStream,
  ConcurrencyError,
  createGroupCommitAppender,
  EventRefusedError,
  StoreUnavailableError,
  hasEventsAfter,
  readCommittedEvents,
  readStream,
  startOfLog,
  type Checkpoint,
  type NewEvent,
  type StoredEvent,
} from './index';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('event_store', { poolSize: 20 });
});
afterAll(async () => {
  await db?.drop();
});

const websiteAdded = (websiteId: string, name = 'Shop'): NewEvent => ({
  type: 'WebsiteAdded',
  data: {
    websiteId,
    ownerId: randomUUID(),
    name,
    domain: 'shop.example.com',
    embedCode: `emb_${websiteId.replace(/-/g, '').slice(0, 20)}`,
    addedAt: new Date().toISOString(),
  },
});

async function readAll(after: Checkpoint = startOfLog): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  let checkpoint = after;
  for (;;) {
    const batch = await readCommittedEvents(db.pool, checkpoint, { limit: 500 });
    if (batch.length === 0) return all;
    all.push(...batch);
    const last = batch[batch.length - 1]!;
    checkpoint = { transactionId: last.transactionId, position: last.position };
  }
}

describe('the events table is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE for the application role', async () => {
    const websiteId = randomUUID();
    await appendToStream(db.pool, `website-${websiteId}`, [websiteAdded(websiteId)]);
    await expect(db.pool.query(`UPDATE events SET data = '{}' WHERE stream_id = $1`, [`website-${websiteId}`])).rejects.toThrow(
      /events is append-only: UPDATE is not allowed/,
    );
    await expect(db.pool.query(`DELETE FROM events WHERE stream_id = $1`, [`website-${websiteId}`])).rejects.toThrow(
      /events is append-only: DELETE is not allowed/,
    );
    await expect(db.pool.query('TRUNCATE events')).rejects.toThrow(/events is append-only: TRUNCATE is not allowed/);
    const stored = await readStream(db.pool, `website-${websiteId}`);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.data).toMatchObject({ websiteId, name: 'Shop' });
  });
});

describe('recordedAt', () => {
  it('is the row\'s recorded_at in UTC with milliseconds, as appended, read and read by stream', async () => {
    const websiteId = randomUUID();
    const [appended] = (await appendToStream(db.pool, `website-${websiteId}`, [websiteAdded(websiteId)])).stored;
    // Whatever the session's time zone, the same instant comes back.
    const client = await db.pool.connect();
    try {
      await client.query(`SET TIME ZONE 'America/St_Johns'`);
      const [read] = await readStream(client, `website-${websiteId}`);
      const { rows } = await db.pool.query<{ recorded_at: Date }>('SELECT recorded_at FROM events WHERE event_id = $1', [read!.eventId]);
      expect(read!.recordedAt).toBe(rows[0]!.recorded_at.toISOString());
      expect(appended?.recordedAt).toBe(read!.recordedAt);
      expect((await readAll()).find((event) => event.eventId === read!.eventId)?.recordedAt).toBe(read!.recordedAt);
    } finally {
      client.release();
    }
  });
});

describe('when the same event id is appended twice', () => {
  it('a versioned stream stores it once and answers the retry without changing the version', async () => {
    const websiteId = randomUUID();
    const event = { ...websiteAdded(websiteId), eventId: randomUUID() } as NewEvent;
    const first = await appendToStream(db.pool, `website-${websiteId}`, [event], { expectedVersion: 'no_stream' });
    const retry = await appendToStream(db.pool, `website-${websiteId}`, [event], { expectedVersion: 'no_stream' });
    expect(first.stored).toHaveLength(1);
    expect(first.nextExpectedVersion).toBe(1);
    expect(retry.stored).toHaveLength(0);
    expect(retry.nextExpectedVersion).toBe(1);
    expect(await readStream(db.pool, `website-${websiteId}`)).toHaveLength(1);
  });

  it('the group-commit appender stores it once, also within one batch and in upper case', async () => {
    const appender = createGroupCommitAppender(db.pool);
    const websiteId = randomUUID();
    const request = consentAppendRequest({ websiteId });
    const upper = { ...request, event: { ...request.event, eventId: request.event.eventId.toUpperCase() } };
    const results = await Promise.all([appender.append(request), appender.append(request), appender.append(upper)]);
    const later = await appender.append(request);
    await appender.close();
    expect(results.map((result) => result.status).sort()).toEqual(['duplicate', 'duplicate', 'stored']);
    expect(later.status).toBe('duplicate');
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM events WHERE event_id = $1', [request.event.eventId]);
    expect(rows[0].n).toBe(1);
  });
});

describe('when a writer expects a stale stream version', () => {
  it('fails with a typed concurrency error naming both versions', async () => {
    const websiteId = randomUUID();
    const stream = `website-${websiteId}`;
    await appendToStream(db.pool, stream, [websiteAdded(websiteId)], { expectedVersion: 'no_stream' });
    const error = await appendToStream(db.pool, stream, [websiteAdded(websiteId, 'Other')], { expectedVersion: 'no_stream' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error).toMatchObject({ code: 'CONCURRENCY_CONFLICT', streamId: stream, expectedVersion: 0, actualVersion: 1 });
  });

  it('of two racing writers with the same expected version exactly one wins', async () => {
    const websiteId = randomUUID();
    const stream = `website-${websiteId}`;
    await appendToStream(db.pool, stream, [websiteAdded(websiteId)]);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        appendToStream(db.pool, stream, [websiteAdded(websiteId, `Name ${index}`)], { expectedVersion: 1 }),
      ),
    );
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(5);
    for (const outcome of lost) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
    expect((await readStream(db.pool, stream)).map((event) => event.streamVersion)).toEqual([1, 2]);
  });
});

describe('when an event is unknown or invalid', () => {
  it('is rejected at append with a clear error and nothing is stored', async () => {
    const websiteId = randomUUID();
    const unknown = { type: 'ConsentMaybe', data: {} } as unknown as NewEvent;
    await expect(appendToStream(db.pool, `x-${websiteId}`, [unknown])).rejects.toThrow(/ConsentMaybe/);
    const invalid = consentEvent({ websiteId: 'not-a-uuid' });
    const appender = createGroupCommitAppender(db.pool);
    await expect(appender.append({ streamId: 'consent-x', event: invalid })).rejects.toThrow(/ConsentGiven.*websiteId/s);
    await expect(
      appender.append({ streamId: 'consent-x', event: { ...consentEvent({ websiteId }), eventId: 'not-a-uuid' } }),
    ).rejects.toThrow(/Event id must be a UUID/);
    await appender.close();
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id IN ($1, 'consent-x')`, [`x-${websiteId}`]);
    expect(rows[0].n).toBe(0);
  });
});

describe('when many writers append while a reader tails the log', () => {
  it('the reader sees every committed event exactly once, in one consistent order, including late commits', async () => {
    const websiteId = randomUUID();
    const expected = new Set<string>();
    const seen: StoredEvent[] = [];
    let writing = true;

    // The tailing reader, polling from its checkpoint like the relay does.
    const reader = (async () => {
      let checkpoint = startOfLog;
      for (;;) {
        const done = !writing;
        const batch = await readCommittedEvents(db.pool, checkpoint, { limit: 200, types: ['ConsentGiven', 'ConsentDeclined'] });
        for (const event of batch) if ((event.data as { websiteId?: string }).websiteId === websiteId) seen.push(event);
        const last = batch[batch.length - 1];
        if (last) checkpoint = { transactionId: last.transactionId, position: last.position };
        if (done && batch.length === 0) return;
        if (batch.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();

    // Eight connections: each opens transactions that insert, sometimes wait before committing
    // (so later positions commit first), sometimes roll back (those must never be seen).
    const writers = Array.from({ length: 8 }, async (_, writer) => {
      const client = await db.pool.connect();
      try {
        for (let round = 0; round < 25; round++) {
          const events = Array.from({ length: 1 + ((writer + round) % 5) }, () => consentEvent({ websiteId }));
          const rollBack = round % 11 === 7;
          await client.query('BEGIN');
          for (const event of events) {
            await client.query(
              `INSERT INTO events (event_id, stream_id, type, schema_version, data) VALUES ($1, $2, $3, 1, $4)`,
              [event.eventId, `consent-${websiteId}`, event.type, JSON.stringify(event.data)],
            );
          }
          if (round % 6 === writer % 6) await new Promise((resolve) => setTimeout(resolve, 30 + writer * 5));
          await client.query(rollBack ? 'ROLLBACK' : 'COMMIT');
          if (!rollBack) for (const event of events) expected.add(event.eventId);
        }
      } finally {
        client.release();
      }
    });
    // Group-commit appends run beside them.
    const appender = createGroupCommitAppender(db.pool, { maxConcurrentBatches: 3 });
    const grouped = Array.from({ length: 400 }, async () => {
      const result = await appender.append(consentAppendRequest({ websiteId }));
      expected.add(result.eventId);
    });
    await Promise.all([...writers, ...grouped]);
    await appender.close();
    writing = false;
    await reader;

    const ids = seen.map((event) => event.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(expected);
    for (let index = 1; index < seen.length; index++) {
      const previous = seen[index - 1]!;
      const current = seen[index]!;
      const ordered =
        current.transactionId > previous.transactionId ||
        (current.transactionId === previous.transactionId && current.position > previous.position);
      expect(ordered).toBe(true);
    }
    // The log really had out-of-order commits: some position arrived after a higher one.
    const positions = seen.map((event) => event.position);
    expect(positions.some((position, index) => index > 0 && position < positions[index - 1]!)).toBe(true);
    // And a second full read gives the same order.
    const again = (await readAll()).filter((event) => (event.data as { websiteId?: string }).websiteId === websiteId);
    expect(again.map((event) => event.eventId)).toEqual(ids);
  });
});

describe('when a long write transaction is open', () => {
  it('in another database on the server, readers here are not held back', async () => {
    const other = await createTestDatabase('event_store_other');
    const blocker = await other.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`INSERT INTO checkpoints (name) VALUES ('held-open')`);
      const appender = createGroupCommitAppender(db.pool);
      const { eventId } = await appender.append(consentAppendRequest({ websiteId: randomUUID() }));
      await appender.close();
      const all = await readAll();
      expect(all.some((event) => event.eventId === eventId)).toBe(true);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
      await other.drop();
    }
  });

  it('in this database, readers wait for it: its rows could still sort before newer ones', async () => {
    const blocker = await db.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`INSERT INTO checkpoints (name) VALUES ('held-open-here')`);
      const appender = createGroupCommitAppender(db.pool);
      const { eventId } = await appender.append(consentAppendRequest({ websiteId: randomUUID() }));
      await appender.close();
      expect((await readAll()).some((event) => event.eventId === eventId)).toBe(false);
      await blocker.query('COMMIT');
      expect((await readAll()).some((event) => event.eventId === eventId)).toBe(true);
    } finally {
      blocker.release();
    }
  });
});

describe('hasEventsAfter, the probe of a quiet log', () => {
  it('is false at the end of the log, true once an event commits after it, and blind to one not yet committed', async () => {
    await appendToStream(db.pool, `website-${randomUUID()}`, [websiteAdded(randomUUID()), websiteAdded(randomUUID())]);
    const all = await readAll();
    const [before, last] = all.slice(-2) as [StoredEvent, StoredEvent];
    const end: Checkpoint = { transactionId: last.transactionId, position: last.position };
    expect(await hasEventsAfter(db.pool, { transactionId: before.transactionId, position: before.position })).toBe(true);
    expect(await hasEventsAfter(db.pool, startOfLog)).toBe(true);
    expect(await hasEventsAfter(db.pool, end)).toBe(false);

    const writer = await db.pool.connect();
    try {
      await writer.query('BEGIN');
      await appendToStreamIn(writer);
      expect(await hasEventsAfter(db.pool, end)).toBe(false);
      await writer.query('COMMIT');
    } finally {
      writer.release();
    }
    expect(await hasEventsAfter(db.pool, end)).toBe(true);
  });
});

/** An event inserted in the caller's open transaction. */
async function appendToStreamIn(client: { query: (text: string, values: unknown[]) => Promise<unknown> }): Promise<void> {
  await client.query(
    `INSERT INTO events (event_id, stream_id, type, schema_version, data) VALUES ($1, $2, 'WebsiteAdded', 1, $3)`,
    [randomUUID(), `website-${randomUUID()}`, JSON.stringify(websiteAdded(randomUUID()).data)],
  );
}

describe('when one event in a group-commit batch holds data the database refuses', () => {
  it('fails only that event; everyone else in the batch is stored and acknowledged', async () => {
    const websiteId = randomUUID();
    // Past the edge's guards on purpose: what Postgres itself refuses (NUL in jsonb, a lone surrogate).
    const hostile = new Map([
      [7, 'en\u0000US'],
      [23, '\ud800'],
      [41, 'de\udfff'],
    ]);
    const appender = createGroupCommitAppender(db.pool, { maxBatchSize: 60, maxWaitMs: 50, maxConcurrentBatches: 1 });
    const requests = Array.from({ length: 60 }, (_, index) => {
      const language = hostile.get(index);
      return consentAppendRequest({ websiteId, ...(language === undefined ? {} : { language }) });
    });
    const outcomes = await Promise.allSettled(requests.map((request) => appender.append(request)));
    await appender.close();

    const refused = outcomes.flatMap((outcome, index) => (outcome.status === 'rejected' ? [index] : []));
    expect(refused).toEqual([...hostile.keys()]);
    for (const index of refused) {
      const reason = (outcomes[index] as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(EventRefusedError);
      expect(reason).not.toBeInstanceOf(StoreUnavailableError);
    }
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').every((outcome) => outcome.value.status === 'stored')).toBe(true);
    const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE data->>'websiteId' = $1", [websiteId]);
    expect(rows[0]!.n).toBe(57);
  });
});

describe('a decision on a consent stream (decideOnStream)', () => {
  const identified = (websiteId: string, visitorId: string) => ({
    type: 'VisitorIdentified' as const,
    eventId: randomUUID(),
    data: {
      websiteId,
      visitorId,
      source: 'form' as const,
      email: 'ada@example.com',
      name: null,
      company: null,
      pageUrl: null,
      consentEventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
    },
  });

  it('holds a guarded group-commit append of its stream until it commits, so the append follows it in the log', async () => {
    const appender = createGroupCommitAppender(db.pool);
    const websiteId = randomUUID();
    const request = consentAppendRequest({ websiteId });
    const visitorId = request.streamId.slice(`consent-${websiteId}-`.length);
    let appended: Promise<unknown> | undefined;
    let settledDuringDecision = false;
    const decision = await decideOnStream(db.pool, request.streamId, async (tx) => {
      appended = appender.append({ ...request, guardsDecisions: true }).then(() => (settledDuringDecision = true));
      // Long enough for an unguarded batch to commit several times over.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return appendUnversioned(tx, request.streamId, identified(websiteId, visitorId));
    });
    expect(settledDuringDecision).toBe(false);
    await appended;
    const events = (await readAll()).filter((event) => event.streamId === request.streamId);
    expect(events.map((event) => event.type)).toEqual(['VisitorIdentified', request.event.type]);
    expect(events[0]!.eventId).toBe(decision.eventId);
    expect(events[0]!.streamVersion).toBeNull();
    await appender.close();
  });

  it('sees a guarded append that committed first, and lets unguarded appends and other streams through', async () => {
    const appender = createGroupCommitAppender(db.pool);
    const websiteId = randomUUID();
    const guarded = consentAppendRequest({ websiteId });
    const other = consentAppendRequest({ websiteId });
    await appender.append({ ...guarded, guardsDecisions: true });
    const seen = await decideOnStream(db.pool, guarded.streamId, async (tx) => {
      // Another stream's guarded append and this stream's unguarded one do not wait for the decision.
      await appender.append({ ...other, guardsDecisions: true });
      await appender.append(consentAppendRequest({ websiteId }));
      const { rows } = await tx.query('SELECT event_id FROM events WHERE stream_id = $1', [guarded.streamId]);
      return rows.map((row: { event_id: string }) => row.event_id);
    });
    expect(seen).toEqual([guarded.event.eventId]);
    await appender.close();
  });

  it('stores a retried decision once', async () => {
    const websiteId = randomUUID();
    const visitorId = randomUUID();
    const event = identified(websiteId, visitorId);
    const streamId = `consent-${websiteId}-${visitorId}`;
    expect(await decideOnStream(db.pool, streamId, (tx) => appendUnversioned(tx, streamId, event))).toEqual({ eventId: event.eventId, status: 'stored' });
    expect(await decideOnStream(db.pool, streamId, (tx) => appendUnversioned(tx, streamId, event))).toEqual({ eventId: event.eventId, status: 'duplicate' });
  });
});

describe('how the group-commit appender batches', () => {
  it('writes the appends of one turn of the event loop together, and what queues while a batch commits in the next one', async () => {
    const websiteId = randomUUID();
    const sizes: number[] = [];
    const appender = createGroupCommitAppender(db.pool, { onBatchCommitted: (size) => sizes.push(size) });
    // Five requests read in one turn (as from one read of several sockets): one batch.
    await Promise.all(Array.from({ length: 5 }, () => appender.append(consentAppendRequest({ websiteId }))));
    expect(sizes).toEqual([5]);

    // Once the appender is idle, one alone goes at the end of its turn; four that arrive in the
    // next turn, while it commits, wait for it and go together.
    await new Promise((resolve) => setImmediate(resolve));
    const alone = appender.append(consentAppendRequest({ websiteId }));
    const later = await new Promise<Array<Promise<unknown>>>((resolve) =>
      setImmediate(() => resolve(Array.from({ length: 4 }, () => appender.append(consentAppendRequest({ websiteId }))))),
    );
    await Promise.all([alone, ...later]);
    await appender.close();
    expect(sizes).toEqual([5, 1, 4]);
  });
});
