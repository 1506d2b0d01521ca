// `consentry dead-letters [list|retry] [--projection NAME] [--all] [--json]`: the events a projection
// set aside because it could not apply them (projections/src/runtime/dead-letters.ts). `list` shows
// the open ones (with --all, resolved ones too); `retry` applies each again, once the cause is fixed,
// and resolves those that now apply. Exit status: list 0; retry 0 when every retried event applied
// (or is gone from the log), 1 when some still fail.
import { parseArgs } from 'node:util';
import type { Config } from '@consentry/infra';
import { allProjections, findProjection, listDeadLetters, retryDeadLetters } from '@consentry/projections';
import { formatCount, processIo, withJobDatabase, type JobIo } from './job';

export async function runDeadLetters(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { projection: { type: 'string' }, all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  const action = positionals[0] ?? 'list';
  if (positionals.length > 1 || (action !== 'list' && action !== 'retry')) {
    io.err('Usage: consentry dead-letters [list|retry] [--projection NAME] [--all] [--json]\n');
    return 2;
  }
  if (values.projection !== undefined && !findProjection(values.projection)) {
    io.err(`Unknown projection: ${values.projection}. Known projections: ${allProjections.map((p) => p.name).join(', ')}\n`);
    return 2;
  }
  const projection = values.projection === undefined ? {} : { projection: values.projection };

  return withJobDatabase(config, async (pool) => {
    if (action === 'list') {
      const letters = await listDeadLetters(pool, { ...projection, includeResolved: values.all, limit: 100_000 });
      if (values.json) {
        io.out(`${JSON.stringify(letters, null, 2)}\n`);
      } else if (letters.length === 0) {
        io.out('No events are set aside.\n');
      } else {
        for (const letter of letters) {
          const state = letter.resolvedAt ? `resolved ${letter.resolvedAt}` : `open since ${letter.firstFailedAt}`;
          io.out(`${letter.projection}  ${letter.eventId}  ${letter.type}  position ${letter.position}  ${state}, ${letter.attempts} attempt(s)\n    ${letter.error}\n`);
        }
      }
      return 0;
    }
    const outcomes = await retryDeadLetters(pool, allProjections, projection);
    const failed = outcomes.filter((outcome) => outcome.outcome === 'failed');
    if (values.json) {
      io.out(`${JSON.stringify(outcomes, null, 2)}\n`);
    } else {
      for (const outcome of failed) io.out(`still failing: ${outcome.projection} ${outcome.eventId}: ${outcome.error}\n`);
      const count = (kind: string) => formatCount(outcomes.filter((outcome) => outcome.outcome === kind).length);
      io.out(`Retried ${formatCount(outcomes.length)} events: ${count('applied')} applied, ${count('gone')} no longer in the log, ${formatCount(failed.length)} still failing.\n`);
    }
    return failed.length > 0 ? 1 : 0;
  });
}
