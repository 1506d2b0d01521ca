// Runs the `consentry` command as automation does, each time in a fresh process, for the CLI's
// end-to-end tests (cli.e2e: against DATABASE_URL; cli-embedded.e2e: on the embedded default).
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createGroupCommitAppender, type Db } from '@consentry/infra';
import { consentAppendRequest } from '@consentry/infra/testing';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The `consentry` command as installed: the compiled server (built again first if a source changed). */
export const consentryBin = fileURLToPath(new URL('../../services/server/bin/consentry.mjs', import.meta.url));
export const websiteId = '0b7a3f52-9c1e-4d2a-8f6b-5e4c3d2b1a09';

export interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `consentry …args` in a fresh process with exactly this environment (nothing inherited but PATH/HOME). */
export function consentry(args: readonly string[], env: Record<string, string>, onStderr?: (chunk: string) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [consentryBin, ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: 'silent', ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (onStderr) child.stderr?.on('data', (chunk: Buffer | string) => onStderr(String(chunk)));
  });
}

export async function appendConsents(pool: Db, count: number): Promise<string[]> {
  const appender = createGroupCommitAppender(pool);
  const requests = Array.from({ length: count }, () => consentAppendRequest({ websiteId }));
  await Promise.all(requests.map((request) => appender.append(request)));
  await appender.close();
  return requests.map((request) => request.event.eventId!);
}

/** What a superuser could do behind the application's back: change a sealed event. */
export async function tamperWith(pool: Db, eventId: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(`UPDATE events SET data = jsonb_set(data, '{ipAddress}', '"198.51.100.7"') WHERE event_id = $1`, [eventId]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}
