// Test helper: reads docs/ingest-protocol.md, the contract with services/ingest, so the widget's tests
// check request bodies against the page itself rather than against a copy that could drift from it.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// A path, not a URL object: in the happy-dom environment the global URL is the simulated browser's.
const doc = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/ingest-protocol.md'), 'utf8');

/** The section under the `## POST {host}/api/collect/<path>` heading. */
function section(path: string): string {
  const heading = `## POST {host}/api/collect/${path}\n`;
  const start = doc.indexOf(heading);
  if (start < 0) throw new Error(`docs/ingest-protocol.md has no section for ${path}`);
  const rest = doc.slice(start + heading.length);
  const end = rest.indexOf('\n## ');
  return end < 0 ? rest : rest.slice(0, end);
}

/** The body fields the protocol lists for a collect endpoint, in the page's order. */
export function protocolFields(path: string): string[] {
  const text = section(path);
  const block = /```json\n([\s\S]*?)```/.exec(text);
  if (block?.[1]) return Object.keys(JSON.parse(block[1]) as object);
  const inline = /`(\{[^`]*\})`/.exec(text);
  if (!inline?.[1]) throw new Error(`no body in the ${path} section`);
  // Field names follow `{` or `,`; quoted words after `:` are descriptions of values.
  return Array.from(inline[1].matchAll(/[{,]\s*"(\w+)"/g), (m) => m[1] as string);
}

/** The values the protocol allows for an enumerated field, e.g. `"choice": "accepted | declined"`. */
export function protocolEnum(path: string, field: string): string[] {
  const m = new RegExp(`"${field}": "([^"]*)"`).exec(section(path));
  if (!m?.[1]) throw new Error(`no ${field} in the ${path} section`);
  return m[1].split('|').map((v) => v.trim());
}

/** The success status the protocol gives for an endpoint (`→ 202`, `Answer 201`). */
export function protocolStatus(path: string): number {
  const m = /(?:→|Answer) `?(\d{3})/.exec(section(path));
  if (!m?.[1]) throw new Error(`no status in the ${path} section`);
  return Number(m[1]);
}
