// Uploaded images (logos, the hero background) arrive as base64 data URLs and are shown to every
// visitor of the app and the public site, so they are checked for what they are, not for what they
// claim: the decoded bytes must start with the signature of the declared type (PNG, JPEG, GIF,
// WebP), and an SVG is rebuilt from an allow-list of elements and attributes (svg-sanitiser.ts),
// refused when it holds anything that runs, embeds, links or loads; the rebuilt SVG is what is kept.
import { z } from 'zod';
import { sanitiseSvg } from './svg-sanitiser';

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

/** The size as people read it (spec: 'smaller than 2MB'). */
function formatBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return mebibytes >= 1 ? `${Number(mebibytes.toFixed(1))}MB` : `${Math.ceil(bytes / 1024)}KB`;
}

/** Why an SVG document is refused, or null when it is a drawing (kept as sanitiseSvg rebuilds it). */
export function findSvgProblem(svg: string): string | null {
  return sanitiseSvg(svg).problem ?? null;
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
  const tooLarge: ImageProblem = { apiCode: 'FILE_TOO_LARGE', message: `File too large: please choose an image smaller than ${formatBytes(maxBytes)}` };
  if (decodedLength > maxBytes) return tooLarge;
  const bytes = Buffer.from(payload, 'base64');
  const type = header[1] ?? '';
  if (type === 'svg+xml') {
    const sanitised = sanitiseSvg(bytes.toString('utf8'));
    if (sanitised.problem !== undefined) return invalid(sanitised.problem);
    // What is kept is the rebuilt document, whose escapes can make it a little longer.
    return Buffer.byteLength(sanitised.svg, 'utf8') > maxBytes ? tooLarge : null;
  }
  const matches = rasterSignatures[type];
  return matches?.(bytes) ? null : invalid(`the data is not a ${type.toUpperCase()} image`);
}

/**
 * The data URL as it is kept: an SVG rebuilt from the allow-list (svg-sanitiser.ts); anything else,
 * or anything findImageProblem refuses, as it is.
 */
export function keptImageDataUrl(dataUrl: string): string {
  const header = 'data:image/svg+xml;base64,';
  if (!dataUrl.startsWith(header)) return dataUrl;
  const { svg } = sanitiseSvg(Buffer.from(dataUrl.slice(header.length), 'base64').toString('utf8'));
  return svg === undefined ? dataUrl : header + Buffer.from(svg, 'utf8').toString('base64');
}

/**
 * A request field holding an image data URL; a refusal carries its api code (FILE_TOO_LARGE,
 * INVALID_FILE_TYPE) for the error handler. The length bound comes first, so an oversized value is
 * never decoded. An SVG that passes is replaced by its rebuilt, allow-listed form.
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
      if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem.message, params: { apiCode: problem.apiCode }, continue: false });
    })
    // Runs only once the checks passed (each stops the parse): the rebuilt SVG replaces the upload.
    .overwrite(keptImageDataUrl)
    .meta({ description: `An image as a base64 data URL (PNG, JPEG, GIF, WebP or SVG), at most ${formatBytes(maxBytes)} decoded` });
}
