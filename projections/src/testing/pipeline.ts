// Test helpers for the relay and projector runtime: isolated NATS streams, consent traffic, the
// totals a projection must reach, and relay/projector child processes to kill.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createGroupCommitAppender, type Db } from '@consentry/infra';
import { consentAppendRequest } from '@consentry/infra/testing';

export const websites = [randomUUID(), randomUUID(), randomUUID()] as const;

/** Appends `count` consents spread over three websites and five days, 1 in 3 declined. */
export async function appendConsents(pool: Db, count: number, offset = 0): Promise<void> {
  const appender = createGroupCommitAppender(pool);
  await Promise.all(
    Array.from({ length: count }, (_, index) => {
      const n = index + offset;
      const day = new Date(Date.UTC(2026, 10, 1 + (n % 5), 12, n % 60)).toISOString();
      return appender.append(
        consentAppendRequest({ websiteId: websites[n % 3]!, choice: n % 3 === 0 ? 'declined' : 'accepted', receivedAt: day }),
      );
    }),
  );
  await appender.close();
}

export async function countConsentEvents(pool: Db): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int8 AS n FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`,
  );
  return rows[0]!.n;
}

export async function projectedConsentTotal(pool: Db): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT coalesce(sum(accepted + declined), 0)::int8 AS n FROM consent_stats_daily',
  );
  return rows[0]!.n;
}

/** The consent-stats read model as computed directly from the log, for exact comparison. */
export async function consentStatsFromLog(pool: Db): Promise<string[]> {
  const { rows } = await pool.query<{ line: string }>(
    `SELECT concat_ws(' ', website_id, day, count(*) FILTER (WHERE type = 'ConsentGiven'),
                      count(*) FILTER (WHERE type = 'ConsentDeclined')) AS line
       FROM (SELECT type, data->>'websiteId' AS website_id,
                    ((data->>'receivedAt')::timestamptz AT TIME ZONE 'UTC')::date AS day
               FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')) AS consents
      GROUP BY website_id, day
      ORDER BY website_id, day`,
  );
  return rows.map((row) => row.line);
}

export async function consentStatsRows(pool: Db): Promise<string[]> {
  const { rows } = await pool.query<{ line: string }>(
    `SELECT concat_ws(' ', website_id, day, accepted, declined) AS line FROM consent_stats_daily ORDER BY website_id, day`,
  );
  return rows.map((row) => row.line);
}

const processScript = fileURLToPath(new URL('./pipeline-process.ts', import.meta.url));

export interface PipelineProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  waitForLine(line: string, timeoutMs?: number): Promise<void>;
  kill(): Promise<void>;
}

export function spawnPipelineProcess(env: Record<string, string>): PipelineProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', processScript], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async waitForLine(line, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!output.split('\n').includes(line)) {
        if (child.exitCode !== null) throw new Error(`process exited before printing ${line}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${line}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
