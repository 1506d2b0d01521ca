// Small benchmark harness: percentiles, rates and a printed report. Benchmarks compare against a
// baseline measured in the same run, because these machines are noisy: ratios travel, absolute
// numbers do not. Also what a benchmark needs to charge CPU to the system it measures: process trees
// from /proc (proc-stat.ts) and a PostgreSQL's work for one database (postgres-cpu.ts).
export * from './proc-stat';
export * from './postgres-cpu';

export function percentile(sortedValues: readonly number[], p: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const index = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1));
  return sortedValues[index]!;
}

export function summarise(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export const formatNumber = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export interface Verdict {
  readonly name: string;
  readonly value: string;
  readonly target: string;
  readonly pass: boolean;
}

export function printVerdicts(title: string, verdicts: readonly Verdict[]): boolean {
  process.stdout.write(`\n${title}\n`);
  for (const verdict of verdicts) {
    process.stdout.write(`  ${verdict.pass ? 'PASS' : 'MISS'}  ${verdict.name}: ${verdict.value} (target ${verdict.target})\n`);
  }
  return verdicts.every((verdict) => verdict.pass);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
