// `npm run fuzz [-- REQUESTS]`: the big fuzz run (default 20,000 requests) over every route of the
// OpenAPI document and the collection endpoints; prints the tally per status class and per route,
// and each failure. Exits 1 when any answer was ≥ 500.
import { runRouteFuzz } from './route-fuzz';

const requested = Number(process.argv[2] ?? process.env.FUZZ_REQUESTS ?? 20_000);
if (!Number.isInteger(requested) || requested < 1) {
  process.stderr.write('Usage: npm run fuzz [-- REQUESTS]  (a whole number of requests, default 20000)\n');
  process.exit(2);
}
const seed = process.env.FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED);
const summary = await runRouteFuzz({
  requests: requested,
  seed,
  onProgress: (done, total) => process.stderr.write(`\r${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} requests`),
});
process.stderr.write('\n');
const out = (line: string) => process.stdout.write(`${line}\n`);
out(`Fuzzed ${summary.targets} routes with ${summary.requests.toLocaleString('en-US')} requests (seed ${seed}) in ${(summary.durationMs / 1000).toFixed(1)} s`);
out(`  2xx ${summary.byStatusClass['2xx']}  3xx ${summary.byStatusClass['3xx']}  4xx ${summary.byStatusClass['4xx']}  5xx ${summary.byStatusClass['5xx']}`);
for (const [route, counts] of [...summary.byRoute].sort(([a], [b]) => a.localeCompare(b))) {
  out(`  ${route.padEnd(52)} ${String(counts.requests).padStart(6)} requests, ${String(counts.accepted).padStart(6)} below 400`);
}
for (const failure of summary.failures) out(`FAILED ${failure.status} ${failure.caller} ${failure.method} ${failure.url}\n  payload: ${failure.payload ?? ''}\n  answer: ${failure.body}`);
process.exitCode = summary.failures.length > 0 ? 1 : 0;
