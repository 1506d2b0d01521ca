import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  defineEvent,
  InvalidEventError,
  UnknownEventTypeError,
  UnsupportedEventVersionError,
  upcastToCurrentVersion,
} from './definition';

describe('when an event is defined', () => {
  const schema = z.strictObject({ name: z.string().max(10) });
  const definition = defineEvent({ type: 'ThingNamed', version: 1, category: 'website', schema });

  it('keeps its type, version, category and schema', () => {
    expect(definition.type).toBe('ThingNamed');
    expect(definition.version).toBe(1);
    expect(definition.category).toBe('website');
    expect(definition.schema).toBe(schema);
    expect(definition.upcasters).toEqual({});
  });

  it('is frozen', () => {
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.upcasters)).toBe(true);
  });
});

describe('when a definition is inconsistent', () => {
  const schema = z.strictObject({});

  it.each([0, -1, 1.5])('refuses version %s', (version) => {
    expect(() => defineEvent({ type: 'ThingNamed', version, category: 'website', schema })).toThrow(
      `Event ThingNamed: version must be a whole number of at least 1, got ${version}`,
    );
  });

  it('refuses a version 3 without an upcaster from version 2', () => {
    expect(() =>
      defineEvent({ type: 'ThingNamed', version: 3, category: 'website', schema, upcasters: { 1: (data) => data } }),
    ).toThrow('Event ThingNamed v3: expected upcasters from versions [1, 2], got [1]');
  });

  it('refuses an upcaster from the current version', () => {
    expect(() =>
      defineEvent({ type: 'ThingNamed', version: 1, category: 'website', schema, upcasters: { 1: (data) => data } }),
    ).toThrow('Event ThingNamed v1: expected upcasters from versions [], got [1]');
  });
});

describe('given an event at version 3 whose data changed twice', () => {
  // v1 { fullName }, v2 { name }, v3 { name, nickname }
  const definition = defineEvent({
    type: 'ThingNamed',
    version: 3,
    category: 'website',
    schema: z.strictObject({ name: z.string(), nickname: z.string().nullable() }),
    upcasters: {
      1: (data) => ({ name: (data as { fullName: string }).fullName }),
      2: (data) => ({ ...(data as { name: string }), nickname: null }),
    },
  });

  it('lifts version 1 data through both upcasters', () => {
    expect(upcastToCurrentVersion(definition, 1, { fullName: 'Ada' })).toEqual({ name: 'Ada', nickname: null });
  });

  it('lifts version 2 data through the last upcaster only', () => {
    expect(upcastToCurrentVersion(definition, 2, { name: 'Ada' })).toEqual({ name: 'Ada', nickname: null });
  });

  it('returns current data unchanged', () => {
    const current = { name: 'Ada', nickname: 'A' };
    expect(upcastToCurrentVersion(definition, 3, current)).toBe(current);
  });

  it.each([4, 0, 2.5])('refuses version %s', (version) => {
    const attempt = () => upcastToCurrentVersion(definition, version, {});
    expect(attempt).toThrow(UnsupportedEventVersionError);
    expect(attempt).toThrow(`Unsupported version ${version} of ThingNamed event: this build reads versions 1 to 3`);
  });
});

describe('an invalid event error', () => {
  it('names the event type and lists each failing path with its message', () => {
    const error = new InvalidEventError('ConsentGiven', [
      { path: 'data.websiteId', message: 'Invalid UUID' },
      { path: 'data.source', message: 'Invalid option' },
    ]);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('invalid_event');
    expect(error.name).toBe('InvalidEventError');
    expect(error.eventType).toBe('ConsentGiven');
    expect(error.message).toBe('Invalid ConsentGiven event: data.websiteId: Invalid UUID; data.source: Invalid option');
  });

  it('lists at most ten issues in its message but keeps all of them', () => {
    const issues = Array.from({ length: 12 }, (_, index) => ({ path: `data.features[${index}]`, message: 'Too big' }));
    const error = new InvalidEventError('SubscriptionPlanPublished', issues);
    expect(error.issues).toHaveLength(12);
    expect(error.message).toMatch(/data\.features\[9\]: Too big; and 2 more$/);
    expect(error.message).not.toContain('data.features[10]');
  });

  it('turns zod paths into data paths', () => {
    const schema = z.strictObject({ features: z.array(z.string().max(2)), nested: z.strictObject({ id: z.uuid() }) });
    const result = schema.safeParse({ features: ['ok', 'too long'], nested: { id: 'x' } });
    expect(result.success).toBe(false);
    if (result.success) return;
    const error = InvalidEventError.fromZodError('ThingNamed', result.error);
    expect(error.issues.map((issue) => issue.path)).toEqual(['data.features[1]', 'data.nested.id']);
  });
});

describe('an unknown event type error', () => {
  it('names the type', () => {
    const error = new UnknownEventTypeError('ConsentGivn');
    expect(error.code).toBe('unknown_event_type');
    expect(error.eventType).toBe('ConsentGivn');
    expect(error.message).toBe('Unknown event type: "ConsentGivn"');
  });

  it('shows at most 100 characters of a long type name', () => {
    const error = new UnknownEventTypeError('X'.repeat(5_000));
    expect(error.message).toBe(`Unknown event type: "${'X'.repeat(100)}…"`);
  });
});
