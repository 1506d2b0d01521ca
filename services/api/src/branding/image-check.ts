// Uploaded images (logos, the hero background) arrive as base64 data URLs and are shown to every
// visitor of the app and the public site, so they are checked for what they are, not for what they
// claim: the decoded bytes must start with the signature of the declared type (PNG, JPEG, GIF,
// WebP), and an SVG must be well-formed XML with an <svg> root and nothing that runs or embeds
// content (scripts, foreign objects, frames, event-handler attributes, javascript: links).
import { SaxesParser } from 'saxes';
import { z } from 'zod';

export type ImageProblem = { readonly apiCode: 'FILE_TOO_LARGE' | 'INVALID_FILE_TYPE'; readonly message: string };

const dataUrlPattern = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/;
const base64Payload = /^[A-Za-z0-9+/]*={0,2}$/;

const startsWith = (bytes: Buffer, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

const rasterSignatures: Record<string, (bytes: Buffer) => boolean> = {
  png: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpeg: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]),
  gif: (bytes) => startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')),
  webp: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8),
};

/** Elements that run code or pull in other documents. Compared without namespace prefix, in lower case. */
const forbiddenSvgElements = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'handler', 'listener']);

/** The size as people read it (spec: 'smaller than 2MB'). */
function formatBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return mebibytes >= 1 ? `${Number(mebibytes.toFixed(1))}MB` : `${Math.ceil(bytes / 1024)}KB`;
}

/** Why an SVG document is refused, or null when it is a harmless drawing. */
export function findSvgProblem(svg: string): string | null {
  const parser = new SaxesParser({ xmlns: false });
  let problem: string | null = null;
  let depth = 0;
  let rootName: string | null = null;
  parser.on('doctype', () => {
    // Entity declarations are how XML bombs and external entities get in; drawings need none.
    problem ??= 'an SVG must not have a DOCTYPE';
  });
  parser.on('processinginstruction', (instruction) => {
    if (instruction.target.toLowerCase() === 'xml-stylesheet') problem ??= 'an SVG must not load style sheets';
  });
  parser.on('opentag', (tag) => {
    const localName = (tag.name.split(':').pop() ?? '').toLowerCase();
    if (depth === 0) rootName = localName;
    depth += 1;
    if (forbiddenSvgElements.has(localName)) problem ??= `an SVG must not contain <${tag.name}>`;
    for (const [name, value] of Object.entries(tag.attributes)) {
      const attributeName = name.toLowerCase();
      const attributeLocalName = attributeName.split(':').pop() ?? '';
      if (attributeLocalName.startsWith('on')) problem ??= `an SVG must not have event handler attributes (${name})`;
      // Strip what browsers ignore inside a URL scheme before looking at it.
      const compact = [...value].filter((char) => char.charCodeAt(0) > 0x20).join('').toLowerCase();
      if (compact.includes('javascript:') || compact.includes('vbscript:') || compact.startsWith('data:text/html')) {
        problem ??= `an SVG must not link to scripts (${name})`;
      }
    }
  });
  parser.on('closetag', () => {
    depth -= 1;
  });
  try {
    parser.write(svg).close();
  } catch {
    return 'the file is not well-formed SVG';
  }
  if (problem) return problem;
  if (rootName !== 'svg') return 'an SVG must have an <svg> root element';
  return null;
}

/** What is wrong with an image data URL, or null when it is a real image of at most `maxBytes`. */
export function findImageProblem(dataUrl: string, maxBytes: number): ImageProblem | null {
  const invalid = (detail: string): ImageProblem => ({
    apiCode: 'INVALID_FILE_TYPE',
    message: `Invalid file type: please choose an image file (PNG, JPG, GIF, WebP or SVG); ${detail}`,
  });
  const header = dataUrlPattern.exec(dataUrl);
  if (!header) return invalid('expected a base64 data URL such as data:image/png;base64,...');
  const payload = dataUrl.slice(header[0].length);
  if (payload.length === 0 || payload.length % 4 !== 0 || !base64Payload.test(payload)) return invalid('the data is not valid base64');
  const decodedLength = (payload.length / 4) * 3 - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0);
  if (decodedLength > maxBytes) {
    return { apiCode: 'FILE_TOO_LARGE', message: `File too large: please choose an image smaller than ${formatBytes(maxBytes)}` };
  }
  const bytes = Buffer.from(payload, 'base64');
  const type = header[1] ?? '';
  if (type === 'svg+xml') {
    const problem = findSvgProblem(bytes.toString('utf8'));
    return problem ? invalid(problem) : null;
  }
  const matches = rasterSignatures[type];
  return matches?.(bytes) ? null : invalid(`the data is not a ${type.toUpperCase()} image`);
}

/**
 * A request field holding an image data URL; a refusal carries its api code (FILE_TOO_LARGE,
 * INVALID_FILE_TYPE) for the error handler. The length bound comes first, so an oversized value is
 * never decoded.
 */
export function imageUpload(maxBytes: number) {
  const maxLength = Math.ceil(maxBytes / 3) * 4 + 'data:image/svg+xml;base64,'.length;
  const tooLarge = `File too large: please choose an image smaller than ${formatBytes(maxBytes)}`;
  return z
    .string()
    .check((ctx) => {
      if (ctx.value.length > maxLength) {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: tooLarge, params: { apiCode: 'FILE_TOO_LARGE' }, continue: false });
        return;
      }
      const problem = findImageProblem(ctx.value, maxBytes);
      if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem.message, params: { apiCode: problem.apiCode } });
    })
    .meta({ description: `An image as a base64 data URL (PNG, JPEG, GIF, WebP or SVG), at most ${formatBytes(maxBytes)} decoded` });
}
