// Telling "the database is not there right now" apart from "this statement can never succeed".
// The first is retried as it is (the group-commit appender answers 503, a projector reconnects and
// tries again); the second is about the data, so retrying the same thing would fail forever: the
// appender retries each event of a failed batch on its own, and a projector sets the event aside
// (dead letters) and goes on.

/** SQLSTATE classes and codes that say nothing about the statement's data. */
const transientSqlStateClasses = new Set([
  '08', // connection exception
  '53', // insufficient resources (out of connections, disk full, memory)
  '57', // operator intervention (admin shutdown, crash shutdown, cannot connect now, query canceled)
  '58', // system error (I/O)
  'XX', // internal error
]);
const transientSqlStates = new Set([
  '40001', // serialization failure
  '40P01', // deadlock detected
  '55P03', // lock not available
  '55006', // object in use
  '25P03', // idle in transaction session timeout
]);

/** Node's socket errors and the pg client's own messages for a connection that went away. */
const transientSystemCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL']);
const transientMessages = /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end|timeout exceeded when trying to connect|the database system is (?:starting up|shutting down|in recovery mode)/i;

/**
 * Whether an error from pg (or from a socket under it) means the database could not be reached or
 * could not run the statement for reasons of its own, rather than refusing this statement's data.
 * Unknown errors count as not transient only when they carry a SQLSTATE: anything else (a
 * programming error in a projection, a TypeError) is about the data it was given.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = Reflect.get(current, 'code');
    if (typeof code === 'string') {
      if (/^[0-9A-Z]{5}$/.test(code)) {
        if (transientSqlStates.has(code) || transientSqlStateClasses.has(code.slice(0, 2))) return true;
      } else if (transientSystemCodes.has(code)) {
        return true;
      }
    }
    if (transientMessages.test(current.message)) return true;
  }
  return false;
}
