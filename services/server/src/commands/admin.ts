// `consentry admin create --username NAME [--password-stdin]`: creates an admin, or sets a new
// password for an existing one (ending that admin's sessions). The password is never an argument
// (arguments end up in shell history and process lists): it is typed at a hidden prompt, twice, or
// read from standard input (the first line) with --password-stdin or when stdin is not a terminal.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { AdminInputError, saveAdmin } from '@consentry/api';
import { createPool, migrateDatabase, type Config } from '@consentry/infra';
import { openDatabase } from '../system';
import { createCommandLogger } from './job';

export const adminUsage = `Usage: consentry admin create --username NAME [--password-stdin]

  Creates an admin (or sets a new password for an existing one). The password is asked for at a
  hidden prompt, or read from the first line of standard input with --password-stdin.
`;

export interface AdminIo {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const processIo: AdminIo = {
  stdin: process.stdin,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** The first line of a stream (without its line ending). */
async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** Asks on the terminal without echoing what is typed. */
function promptHidden(io: AdminIo, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    io.stdout(question);
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const prompt = createInterface({ input: io.stdin, output: silent, terminal: true });
    prompt.question('', (answer) => {
      prompt.close();
      io.stdout('\n');
      resolve(answer);
    });
    prompt.once('SIGINT', () => {
      prompt.close();
      reject(new AdminInputError('Cancelled'));
    });
  });
}

async function readPassword(io: AdminIo, fromStdin: boolean): Promise<string> {
  if (fromStdin || !io.stdin.isTTY) return readFirstLine(io.stdin);
  const password = await promptHidden(io, 'Password: ');
  const repeated = await promptHidden(io, 'Repeat the password: ');
  if (password !== repeated) throw new AdminInputError('The passwords do not match');
  return password;
}

export async function runAdmin(config: Config, args: readonly string[], io: AdminIo = processIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'create') {
    io.stderr(subcommand === undefined ? adminUsage : `Unknown admin command: ${subcommand}\n\n${adminUsage}`);
    return 2;
  }
  let values: { username?: string; 'password-stdin'?: boolean };
  try {
    ({ values } = parseArgs({ args: [...rest], options: { username: { type: 'string' }, 'password-stdin': { type: 'boolean' } }, strict: true }));
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${adminUsage}`);
    return 2;
  }
  if (!values.username) {
    io.stderr(`--username is required\n\n${adminUsage}`);
    return 2;
  }

  let password: string;
  try {
    password = await readPassword(io, values['password-stdin'] === true);
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  // Like migrate, it may prepare a fresh install before its first start (the embedded server for its own run).
  const database = await openDatabase(config, createCommandLogger(config), 'prepare');
  const pool = createPool(database.connectionString, { max: 2 });
  try {
    await migrateDatabase(pool);
    const outcome = await saveAdmin(pool, values.username, password);
    io.stdout(outcome === 'created' ? `Admin ${values.username} created.\n` : `Admin ${values.username}: password changed; their sessions were ended.\n`);
    return 0;
  } catch (error) {
    if (error instanceof AdminInputError) {
      io.stderr(`${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await pool.end();
    await database.stop();
  }
}
