// `npm run build`: the production build (docs/architecture.md, "The production build"). The widget
// and the web app build as before; the server is bundled to JavaScript (server-bundle.ts). Each part
// is built again only when its inputs changed, so a second `npm start` starts at once.
//
//   npm run build              build what is out of date
//   npm run build -- --force   build everything
import { buildStaleParts } from './build-parts';

const force = process.argv.includes('--force');
const unknown = process.argv.slice(2).filter((argument) => argument !== '--force');
if (unknown.length > 0) {
  process.stderr.write(`build: unknown argument ${unknown.join(' ')} (the one option is --force)\n`);
  process.exit(2);
}

try {
  const results = await buildStaleParts({ force });
  for (const result of results) {
    process.stdout.write(`${result.part.padEnd(7)} ${result.built ? `built in ${Math.round(result.ms)} ms` : 'up to date'}\n`);
  }
} catch (error) {
  process.stderr.write(`build: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
