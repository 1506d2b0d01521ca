// Which directory keeps the system user postgres from its programs or its data, when Consentry runs
// as root: said before starting, instead of a start that never ends.
import { describe, expect, it } from 'vitest';
import { firstUntraversable } from './embedded-postgres';

const postgresUid = 105;
const modes: Record<string, { mode: number; uid: number }> = {
  '/': { mode: 0o40755, uid: 0 },
  '/tmp': { mode: 0o41777, uid: 0 },
  '/tmp/checkout-x1': { mode: 0o40700, uid: 0 },
  '/tmp/checkout-x1/node_modules': { mode: 0o40755, uid: 0 },
  '/srv': { mode: 0o40711, uid: 0 },
  '/srv/consentry': { mode: 0o40755, uid: 0 },
  '/var': { mode: 0o40755, uid: 0 },
  '/var/lib': { mode: 0o40755, uid: 0 },
  '/var/lib/postgresql': { mode: 0o40700, uid: postgresUid },
  '/var/lib/postgresql/data': { mode: 0o40700, uid: postgresUid },
};
const statOf = (directory: string) => {
  const stats = modes[directory];
  if (!stats) throw new Error(`no such directory in the test: ${directory}`);
  return stats;
};

describe('firstUntraversable', () => {
  it('names the first directory others cannot search, on the way to any of the paths', () => {
    expect(firstUntraversable(['/srv/consentry', '/tmp/checkout-x1/node_modules'], postgresUid, statOf)).toBe('/tmp/checkout-x1');
  });

  it('passes directories others may search (traverse-only 0711 too)', () => {
    expect(firstUntraversable(['/srv/consentry', '/tmp'], postgresUid, statOf)).toBeUndefined();
  });

  it("passes the postgres user's own directories, and only theirs", () => {
    expect(firstUntraversable(['/var/lib/postgresql/data'], postgresUid, statOf)).toBeUndefined();
    expect(firstUntraversable(['/var/lib/postgresql/data'], 999, statOf)).toBe('/var/lib/postgresql');
    expect(firstUntraversable(['/var/lib/postgresql/data'], undefined, statOf)).toBe('/var/lib/postgresql');
  });
});
