// NATS subject matching as the memory bus applies it; the cases follow the NATS documentation.
import { describe, expect, it } from 'vitest';
import { isFilterWithin, isValidFilter, isValidSubject, matchesSubject, subjectMatcher } from './subjects';

describe('matchesSubject', () => {
  it.each([
    ['a.b.c', 'a.b.c', true],
    ['a.b.c', 'a.b', false],
    ['a.b', 'a.b.c', false],
    ['a.*.c', 'a.b.c', true],
    ['a.*.c', 'a.b.d', false],
    ['a.*', 'a.b.c', false],
    ['*.*', 'a.b', true],
    ['a.>', 'a.b', true],
    ['a.>', 'a.b.c.d', true],
    ['a.>', 'a', false],
    ['>', 'a', true],
    ['>', 'a.b', true],
    ['a.*.>', 'a.b', false],
    ['a.*.>', 'a.b.c', true],
    ['a.b*', 'a.bc', false],
    ['a.b*', 'a.b*', true],
  ])('filter %s against subject %s is %s', (filter, subject, expected) => {
    expect(matchesSubject(filter, subject)).toBe(expected);
  });

  it('gives the same answers through a filter matcher, asked again and again', () => {
    const matches = subjectMatcher('p.consent.*.p1');
    for (let round = 0; round < 3; round++) {
      expect(matches('p.consent.ConsentGiven.p1')).toBe(true);
      expect(matches('p.consent.ConsentGiven.p0')).toBe(false);
      expect(matches('p.site.SiteChanged.p1')).toBe(false);
      expect(matches('p.consent.ConsentGiven.p1.extra')).toBe(false);
    }
  });
});

describe('isFilterWithin', () => {
  it.each([
    ['p.consent.>', 'p.>', true],
    ['p.>', 'p.>', true],
    ['p.*', 'p.>', true],
    ['p', 'p.>', false],
    ['>', 'p.>', false],
    ['*.x', 'p.>', false],
    ['q.x', 'p.>', false],
    ['p.x', 'p.*', true],
    ['p.>', 'p.*', false],
    ['p.x.y', 'p.*', false],
  ])('%s within %s is %s', (filter, outer, expected) => {
    expect(isFilterWithin(filter, outer)).toBe(expected);
  });
});

describe('subject validity', () => {
  it('refuses empty tokens, whitespace and wildcards in a subject', () => {
    expect(isValidSubject('a.b')).toBe(true);
    expect(isValidSubject('a..b')).toBe(false);
    expect(isValidSubject('a.b ')).toBe(false);
    expect(isValidSubject('a.*')).toBe(false);
    expect(isValidSubject('a.>')).toBe(false);
  });

  it('allows > only as the last token of a filter', () => {
    expect(isValidFilter('a.*.>')).toBe(true);
    expect(isValidFilter('a.>.b')).toBe(false);
    expect(isValidFilter('')).toBe(false);
  });
});
