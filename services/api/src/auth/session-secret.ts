// The secret that signs session cookies: SESSION_SECRET when set, else one generated on first start
// and kept in the `secrets` table, so every instance and every restart signs alike.
import { randomBytes } from 'node:crypto';
import type { Db } from '@consentry/infra';

const secretName = 'session-secret';

export async function resolveSessionSecret(pool: Db, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  // Two instances starting at once: the first insert wins and both read the same value.
  await pool.query({
    name: 'secret-create',
    text: 'INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
    values: [secretName, randomBytes(48).toString('base64url')],
  });
  const { rows } = await pool.query<{ value: string }>({ name: 'secret-read', text: 'SELECT value FROM secrets WHERE name = $1', values: [secretName] });
  const value = rows[0]?.value;
  if (value === undefined) throw new Error('The session secret could not be stored');
  return value;
}
