// The build's last step for the widget and the web app: a Brotli (quality 11) and a gzip (level 9)
// form beside each text file of their dist/ of 1 KB or more (app.js → app.js.br, app.js.gz), which the
// server sends by Accept-Encoding (@fastify/static's preCompressed; the widget's routes in ingest).
// Compressed once here at the most effort, rather than at each start by each process. Forms newer than
// their file are kept, so a build with nothing new does no work. docs/architecture.md, "Compression
// and caching".
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What compresses well and the browser asks for by URL; index.html is rendered per response. */
const compressible = /\.(?:js|mjs|css|svg|json|txt|xml|wasm|webmanifest)$/;
/** Below it, a file fits in a packet or two either way (the servers' on-the-fly threshold too). */
export const precompressThreshold = 1024;

export interface PrecompressResult {
  /** Files whose forms were written now. */
  readonly compressed: number;
  /** Files whose forms were already up to date. */
  readonly kept: number;
}

/** Writes the missing or outdated .br and .gz forms for the files under `dir` (hidden folders skipped). */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  let compressed = 0;
  let kept = 0;
  // One file at a time per core's worth of zlib's thread pool: the machine may be running tests too.
  const files = await textFilesUnder(dir);
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (await precompressFile(file)) compressed += 1;
      else kept += 1;
    }
  };
  await Promise.all([worker(), worker()]);
  return { compressed, kept };
}

async function textFilesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await textFilesUnder(full)));
    else if (entry.isFile() && compressible.test(entry.name)) files.push(full);
  }
  return files;
}

const mtimeOf = (file: string): Promise<number | undefined> => stat(file).then((stats) => stats.mtimeMs, () => undefined);

/** Whether `file`'s forms were written now (false: up to date, or too small to need them). */
async function precompressFile(file: string): Promise<boolean> {
  const [source, br, gz] = await Promise.all([mtimeOf(file), mtimeOf(`${file}.br`), mtimeOf(`${file}.gz`)]);
  if (source === undefined) return false;
  if (br !== undefined && gz !== undefined && br >= source && gz >= source) return false;
  const body = await readFile(file);
  if (body.byteLength < precompressThreshold) {
    await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
    return false;
  }
  const forms = {
    br: await brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    }),
    gz: await gzipAsync(body, { level: 9 }),
  };
  for (const [extension, form] of Object.entries(forms)) {
    // A form no smaller than the file is not worth a choice: the file is sent as it is.
    if (form.byteLength < body.byteLength) await writeFile(`${file}.${extension}`, form);
    else await rm(`${file}.${extension}`, { force: true });
  }
  return true;
}
