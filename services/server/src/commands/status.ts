// `consentry status [--json]`: what runs where, read from the database every process shares
// (services/api/src/system-status.ts). Exit status: 0 printed; 1 the database cannot be reached; 2 bad
// arguments. The --json shape: docs/deploy.md, "`consentry status`".
import { parseArgs } from 'node:util';
import { readSystemStatus, type CheckpointStatus, type LagFigure, type LeaderRef, type SystemStatus } from '@consentry/api';
import { createPool, migrateDatabase, type Config, type Db } from '@consentry/infra';
import { openDatabase } from '../system';
import { createCommandLogger, formatCount, processIo, type JobIo } from './job';

/** Events read at most to count lag exactly (one bounded index scan). */
const countLimit = 100_000;

export async function runStatus(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { json: { type: 'boolean', default: false } }, strict: true });
  const status = await withStatusDatabase(config, io, (pool) => readSystemStatus(pool, { countLimit }));
  if (status === null) return 1;
  io.out(values.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status));
  return 0;
}

/**
 * The database as every job opens it (DATABASE_URL or the embedded one, migrated), but one that
 * cannot be reached is said plainly and answers null instead of a stack.
 */
async function withStatusDatabase<T>(config: Config, io: JobIo, work: (pool: Db) => Promise<T>): Promise<T | null> {
  // Logs go to stderr, so --json stays parseable when the embedded server says something.
  const logger = createCommandLogger(config);
  const unreachable = (error: unknown) => {
    io.err(`consentry status: cannot reach the database: ${withoutSecrets(config, error)}\n`);
    return null;
  };
  const database = await openDatabase(config, logger, 'connect').catch(unreachable);
  if (!database) return null;
  const pool = createPool(database.connectionString, { max: 4, applicationName: 'consentry status' });
  try {
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      return unreachable(error);
    }
    await migrateDatabase(pool);
    return await work(pool);
  } finally {
    await pool.end();
    await database.stop();
  }
}

/** An error's message with anything that could be a connection string or its password taken out. */
function withoutSecrets(config: Config, error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  if (config.DATABASE_URL) {
    message = message.split(config.DATABASE_URL).join('DATABASE_URL');
    const password = safePassword(config.DATABASE_URL);
    if (password) message = message.split(password).join('***');
  }
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>') || 'unknown error';
}

function safePassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

/** The human report: one aligned table per part. */
export function formatStatus(status: SystemStatus): string {
  const sections: string[] = [];
  sections.push(`Consentry status at ${status.generatedAt} (database clock); the log's head is at position ${formatCount(status.headPosition)}.`);

  const alive = status.processes.filter((record) => record.alive).length;
  const stale = status.processes.length - alive;
  if (status.processes.length === 0) {
    sections.push('Processes: none has reported (nothing runs `consentry start` against this database, or a version without heartbeats).');
  } else {
    sections.push(
      `Processes: ${alive} alive${stale > 0 ? `, ${stale} not responding` : ''}\n` +
        formatTable(
          ['HOST', 'PID', 'ROLES', 'VERSION', 'UPTIME', 'LAST SEEN', 'LOCKS HELD'],
          status.processes.map((record) => [
            record.host,
            String(record.pid),
            record.roles.join(',') || '-',
            record.version,
            formatDuration(record.uptimeSeconds),
            `${formatDuration(record.seenSecondsAgo)} ago${record.alive ? '' : ' NOT RESPONDING'}`,
            record.leaderships.map(shortLockName).join(', ') || '-',
          ]),
          ['left', 'right', 'left', 'left', 'right', 'right', 'left'],
        ),
    );
  }

  const checkpointCells = (checkpoint: CheckpointStatus) => [
    checkpoint.exists ? formatCount(checkpoint.position) : 'not started',
    formatLag(checkpoint.lag),
    formatCount(checkpoint.lag.positions),
    checkpoint.ageSeconds === null ? '-' : `${formatDuration(checkpoint.ageSeconds)} ago`,
    formatLeader(checkpoint.leader),
  ];
  const legend =
    `LAG is counted exactly among the newest ${formatCount(status.countLimit)} events of the log ("≥": the checkpoint is older, a lower bound); ` +
    'BEHIND is the head position minus the checkpoint position (every type and partition).';
  sections.push(
    'Relay (LAG: events after its checkpoint, not yet published)\n' +
      formatTable(['CHECKPOINT', 'POSITION', 'LAG', 'BEHIND', 'UPDATED', 'HELD BY'], [[status.relay.name, ...checkpointCells(status.relay)]], ['left', 'right', 'right', 'right', 'right', 'left']),
  );

  const projectionRows: string[][] = [];
  const otherLayouts: string[] = [];
  for (const projection of status.projections) {
    projection.checkpoints.forEach((checkpoint, index) => {
      const partition = checkpoint.partition ? `p${checkpoint.partition.index}of${checkpoint.partition.count}` : '-';
      projectionRows.push([index === 0 ? projection.name : '', partition, ...checkpointCells(checkpoint), index === 0 ? formatCount(projection.openDeadLetters) : '']);
    });
    if (projection.otherCheckpoints.length > 0) otherLayouts.push(`${projection.name}: ${projection.otherCheckpoints.join(', ')}`);
  }
  sections.push(
    "Projections (LAG: events of the projection's types, in its partition, after its checkpoint, not yet applied)\n" +
      formatTable(
        ['PROJECTION', 'PARTITION', 'POSITION', 'LAG', 'BEHIND', 'UPDATED', 'HELD BY', 'DEAD LETTERS'],
        projectionRows,
        ['left', 'left', 'right', 'right', 'right', 'right', 'left', 'right'],
      ) +
      (otherLayouts.length > 0 ? `\nCheckpoints of another partition layout, not shown: ${otherLayouts.join('; ')}` : '') +
      `\n${legend}`,
  );

  const letters = Object.entries(status.deadLetters.byProjection).filter(([, count]) => count > 0);
  sections.push(
    status.deadLetters.open === 0
      ? 'Dead letters: none open.'
      : `Dead letters: ${formatCount(status.deadLetters.open)} open (${letters.map(([name, count]) => `${name} ${formatCount(count)}`).join(', ')}); see consentry dead-letters list.`,
  );

  const seal = status.lastSeal;
  sections.push(
    seal
      ? `Last seal: #${seal.sequence} at ${seal.sealedAt} (${formatDuration(seal.ageSeconds)} ago), covering the log up to position ${formatCount(seal.covers.position)}; ` +
          `since then ${formatLag(seal.since)} event(s), seals not counted (the head is ${formatCount(seal.since.positions)} position(s) further); sealer: ${formatLeader(seal.leader)}.`
      : 'Last seal: none yet.',
  );
  return `${sections.join('\n\n')}\n`;
}

type Alignment = 'left' | 'right';

function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Alignment[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (align[column] === 'right' ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

const formatLag = (lag: LagFigure) => `${lag.exact ? '' : '≥'}${formatCount(lag.events)}`;

const formatLeader = (leader: LeaderRef | null) => (leader ? `${leader.host}:${leader.pid}${leader.alive ? '' : ' (not responding)'}` : 'nobody');

/** `projection:consent-stats/p1of4` → `consent-stats/p1of4`; 'relay', 'sealer' as they are. */
const shortLockName = (lock: string) => (lock.startsWith('projection:') ? lock.slice('projection:'.length) : lock);

/** 42s, 3m 05s, 2h 03m, 4d 07h: whole units, coarse enough to read at a glance. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  if (total < 60) return `${total}s`;
  if (total < 3600) return `${Math.floor(total / 60)}m ${pad(total % 60)}s`;
  if (total < 86_400) return `${Math.floor(total / 3600)}h ${pad(Math.floor((total % 3600) / 60))}m`;
  return `${Math.floor(total / 86_400)}d ${pad(Math.floor((total % 86_400) / 3600))}h`;
}
