// Keeps docs/deploy.md true to the code: its environment file is one the configuration accepts, its
// role lists are made of roles `consentry start --role` knows, and every `consentry` command it
// shows is one the CLI has. The page's systemd units, nginx and networking cannot run here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configVariableNames, loadConfig } from '@consentry/infra';
import { parseRoles, roles } from '@consentry/server';

const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
const cliSource = readFileSync(new URL('../../services/server/src/cli.ts', import.meta.url), 'utf8');

/** The contents of the fenced code blocks, and the inline code spans outside them. */
function codeOf(markdown: string): { blocks: string[]; spans: string[] } {
  const blocks: string[] = [];
  const spans: string[] = [];
  let block: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (block) blocks.push(block.join('\n'));
      block = block ? undefined : [];
    } else if (block) {
      block.push(line.trim());
    } else {
      for (const match of line.matchAll(/`([^`]+)`/g)) spans.push(match[1]!);
    }
  }
  return { blocks, spans };
}

const { blocks, spans } = codeOf(doc);
const code = [...blocks, ...spans];

/** The environment file: the code block that starts with its path. */
const environmentFiles = blocks.filter((block) => block.startsWith('# /etc/consentry/consentry.env'));
const settings = (environmentFiles[0] ?? '').split('\n').filter((line) => line !== '' && !line.startsWith('#'));
const variables = settings.flatMap((line) => {
  const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  return match ? [{ name: match[1]!, value: match[2]! }] : [];
});
const names = variables.map((variable) => variable.name);

describe("docs/deploy.md's environment file", () => {
  it('is one code block of NAME=value lines and comments', () => {
    expect(environmentFiles).toHaveLength(1);
    expect(settings.filter((line) => !/^[A-Z][A-Z0-9_]*=/.test(line))).toEqual([]);
  });

  it('is accepted by the configuration as a whole', () => {
    const env = Object.fromEntries(variables.map(({ name, value }) => [name, value]));
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('sets only variables the configuration reads, each once', () => {
    expect(names.filter((name) => !(configVariableNames as readonly string[]).includes(name))).toEqual([]);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('sets what every process of an installation must share', () => {
    const shared = ['DATABASE_URL', 'NATS_URL', 'NATS_STREAM', 'NATS_SUBJECT_PREFIX', 'NATS_STREAM_REPLICAS', 'PROJECTOR_PARTITIONS', 'SESSION_SECRET', 'PUBLIC_URL', 'SEAL_KEY_FILE', 'TRUSTED_PROXIES'];
    expect(shared.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('has values that systemd and a shell read alike (no spaces, quotes or shell characters)', () => {
    expect(variables.filter(({ value }) => !/^[\w.,:/@%+=-]*$/.test(value))).toEqual([]);
  });
});

describe("docs/deploy.md's role lists", () => {
  // `--role ingest,api`; unit names, where systemd-escape writes a comma as \x2c; systemd-escape's input.
  const lists = [
    ...[...doc.matchAll(/--role[ \t=]+([^\s`'"]+)/g)].map((match) => match[1]!).filter((list) => list !== '%I' && list !== '%i'),
    ...[...doc.matchAll(/consentry@([^\s.'"`]+)\.service/g)].map((match) => match[1]!),
    ...[...doc.matchAll(/systemd-escape --template=\S+ (\S+)/g)].map((match) => match[1]!),
  ];

  it('are found', () => {
    expect(lists.length).toBeGreaterThan(5);
  });

  it('name only roles `consentry start --role` knows, each once', () => {
    for (const list of lists) {
      const asked = list.replaceAll('\\x2c', ',').split(',');
      expect(asked.filter((role) => !(roles as readonly string[]).includes(role)), list).toEqual([]);
      expect(parseRoles(asked.join(',')), list).toHaveLength(asked.length);
    }
  });

  it('are escaped in unit names (systemd refuses a comma there)', () => {
    const units = [...doc.matchAll(/consentry@([^\s'"`]*)\.service/g)].map((match) => match[0]);
    expect(units.filter((unit) => unit.includes(','))).toEqual([]);
  });
});

describe("docs/deploy.md's commands", () => {
  const usage = /const usage = `([\s\S]*?)`;/.exec(cliSource)?.[1] ?? '';
  const commands = [...(usage.split('Commands:')[1] ?? '').matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!);
  // `consentry X` where a shell runs it (line start, after |, ;, &, do, then or npx), and the
  // systemd unit's `consentry.mjs X`.
  const shown = code.flatMap((text) => [
    ...[...text.matchAll(/(?:^[ \t]*|[|;&][ \t]*|\b(?:do|then|npx)[ \t]+)consentry[ \t]+([a-z][a-z-]*)/gm)].map((match) => match[1]!),
    ...[...text.matchAll(/\bconsentry\.mjs[ \t]+([a-z][a-z-]*)/g)].map((match) => match[1]!),
  ]);

  it("are read from the CLI's usage", () => {
    expect(commands).toContain('start');
    expect(commands).toContain('status');
  });

  it('are all commands of the CLI', () => {
    expect([...new Set(shown.filter((command) => !commands.includes(command)))]).toEqual([]);
  });

  it('include what operating an installation needs', () => {
    for (const command of ['start', 'status', 'migrate', 'replay', 'dead-letters', 'verify']) expect(shown).toContain(command);
  });
});
