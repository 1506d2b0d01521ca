// Helpers for the unit tests of this package: the failing paths and messages of a schema parse, and
// base64 image data URLs of an exact decoded size.
import type { z } from 'zod';

export type Failure = { path: string; message: string };

/** The issues a parse reports, as `a.b[2]` paths with zod's messages; empty when the value is valid. */
export function failuresOf(schema: z.ZodType, value: unknown): Failure[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : String(segment))).join('.'),
    message: issue.message,
  }));
}

export function failingPathsOf(schema: z.ZodType, value: unknown): string[] {
  return failuresOf(schema, value).map((failure) => failure.path);
}

/** A syntactically valid base64 payload that decodes to exactly `bytes` bytes (all zero). */
export function base64OfBytes(bytes: number): string {
  const remainder = bytes % 3;
  const tail = remainder === 0 ? '' : remainder === 1 ? 'AA==' : 'AAA=';
  return 'AAAA'.repeat(Math.floor(bytes / 3)) + tail;
}

export function imageDataUrlOfBytes(bytes: number, mimeType = 'png'): string {
  return `data:image/${mimeType};base64,${base64OfBytes(bytes)}`;
}

/** `length` copies of `char`, for bound tests. */
export function text(length: number, char = 'a'): string {
  return char.repeat(length);
}
