// Which database errors mean "not there right now" (retry as is) and which mean "this data can
// never be stored" (isolate it): the group-commit appender and the projectors decide by this.
import { describe, expect, it } from 'vitest';
import { isTransientDatabaseError } from './errors';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('an error that says the database is away', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['admin shutdown (57P01)', withCode('57P01')],
    ['cannot connect now (57P03)', withCode('57P03')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection failure (08006)', withCode('08006')],
    ['a deadlock (40P01)', withCode('40P01')],
    ['pg’s own message', new Error('Connection terminated unexpectedly')],
    ['one wrapped as a cause', new Error('could not commit', { cause: withCode('ECONNREFUSED') })],
  ])('is transient: %s', (_label, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
  });
});

describe('an error about the data', () => {
  it.each([
    ['an unsupported Unicode escape (22P05)', withCode('22P05')],
    ['a date out of range (22008)', withCode('22008')],
    ['a bad time zone displacement (22009)', withCode('22009')],
    ['a not-null violation (23502)', withCode('23502')],
    ['a TypeError in a projection', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['not an Error at all', 'boom'],
  ])('is not transient: %s', (_label, error) => {
    expect(isTransientDatabaseError(error)).toBe(false);
  });
});
