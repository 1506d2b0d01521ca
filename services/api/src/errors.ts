// The api's one way of saying what went wrong: `{ error: { code, message } }` (STYLE.md, Services)
// with the status that fits. The caller's mistakes are 4xx with a clear message; a 5xx says only that
// something failed on our side, and the real cause goes to the log.
import { DecisionError, InvalidEventError, UnknownEventTypeError, type DecisionErrorKind } from '@consentry/events';
import { ConcurrencyError, EventRefusedError, StoreUnavailableError } from '@consentry/infra';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** A refusal the api decides on itself (not signed in, not allowed, a bad value). */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notSignedIn = (message = 'Sign in to continue') => new ApiError(401, 'UNAUTHENTICATED', message);
export const adminRequired = () => new ApiError(403, 'ADMIN_REQUIRED', 'This needs an admin session');

export const errorAnswer = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .meta({ id: 'Error', description: 'What went wrong: a stable code and a message for people' });
export type ErrorAnswer = z.infer<typeof errorAnswer>;

export const errorBody = (code: string, message: string): ErrorAnswer => ({ error: { code, message } });

/** The statuses of decider refusals; the web app reads 403 as "plan limit" (spec section 8). */
export const statusOfDecision: Record<DecisionErrorKind, number> = { not_found: 404, conflict: 409, limit_reached: 403 };

/**
 * A validation issue may name the api code it stands for (`params: { apiCode }` on a zod custom
 * issue), so a logo that is too large answers FILE_TOO_LARGE rather than a generic INVALID_REQUEST.
 */
const apiCodeStatus: Record<string, number> = { FILE_TOO_LARGE: 413, INVALID_FILE_TYPE: 400, INVALID_DOMAIN: 400, INVALID_PASSWORD: 400 };

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  /** The zod issue's own fields (minimum, origin, format, values, keys…), and `params` of a custom one. */
  params?: {
    params?: { apiCode?: unknown };
    expected?: unknown;
    origin?: unknown;
    minimum?: unknown;
    maximum?: unknown;
    inclusive?: unknown;
    format?: unknown;
    values?: unknown;
    keys?: unknown;
  };
}

export interface DescribedError {
  readonly statusCode: number;
  readonly code: string;
  readonly message: string;
}

/** Names whose words alone would not say what they are. */
const fieldNames: Record<string, string> = { q: 'search' };
const acronyms = new Set(['ip', 'url', 'id', 'gpc', 'utm', 'csv', 'smtp', 'api']);

/** `companyName` → "Company name"; `regionRules.ZZ` → "Region rules ZZ"; `purposes.2` → "Purposes (item 3)". */
export function fieldLabel(path: readonly string[], context: string | undefined): string {
  const segments = path.filter((segment) => segment !== '');
  if (segments.length === 0) {
    return context === 'querystring' ? 'The query' : context === 'params' ? 'The address' : context === 'headers' ? 'A header' : 'The request';
  }
  const words = (segment: string) =>
    (fieldNames[segment] ?? segment.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase())
      .split(' ')
      .map((word) => (acronyms.has(word) ? word.toUpperCase() : word))
      .join(' ');
  // The two innermost names say which field; an index says which item of a list.
  const named = segments.filter((segment) => !/^\d+$/.test(segment));
  const index = /^\d+$/.test(segments.at(-1)!) ? Number(segments.at(-1)) : undefined;
  const last = named.at(-1) ?? 'item';
  const parent = named.at(-2);
  // A map's key (a region code, a language) is shown as typed, after the field it belongs to.
  const keyLike = (segment: string) => /^[A-Z]{2}(-[A-Z0-9]{1,3})?$|^[a-z]{2}(-[A-Z]{2})?$/.test(segment) && parent !== undefined;
  const text = keyLike(last) ? `${words(parent!)} ${last}` : words(last);
  const label = text.charAt(0).toUpperCase() + text.slice(1);
  return index === undefined ? label : `${label} (item ${index + 1})`;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const typeNames: Record<string, string> = { string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false', array: 'a list', object: 'an object', date: 'a date' };
const formatNames: Record<string, string> = {
  email: 'a valid email address',
  url: 'a valid web address (https://…)',
  uuid: 'a valid id',
  datetime: 'a date and time (ISO 8601, e.g. 2026-01-31T12:00:00Z)',
  date: 'a date (YYYY-MM-DD)',
  regex: 'in the expected format',
};
/** zod's own wording, which names types and operators rather than what to do; a schema's own message is kept. */
const zodDefault = /^(Invalid (input|option|email|URL|UUID|string|format|key|element|union|value|date|ISO)|Too (small|big)|Unrecognized key)/;

/** One issue as a sentence a person can act on: "Email must be a valid email address". */
function describeIssue(issue: ValidationIssue, context: string | undefined): string {
  const path = (issue.instancePath ?? '').split('/').slice(1);
  const label = fieldLabel(path, context);
  const message = issue.message ?? '';
  const params = issue.params ?? {};
  if (message !== '' && !zodDefault.test(message)) return `${label}: ${message}`;
  const origin = typeof params.origin === 'string' ? params.origin : undefined;
  const bound = (value: unknown) => (typeof value === 'number' || typeof value === 'bigint' ? Number(value) : undefined);
  switch (issue.keyword) {
    case 'invalid_type':
      if (/received undefined$/.test(message)) return `${label} is required`;
      return `${label} must be ${typeNames[String(params.expected)] ?? String(params.expected ?? 'of another type')}`;
    case 'too_small': {
      const minimum = bound(params.minimum);
      if (minimum === undefined) break;
      if (origin === 'string') return minimum <= 1 ? `${label} cannot be empty` : `${label} must be at least ${plural(minimum, 'character')}`;
      if (origin === 'array' || origin === 'set') return `${label} needs at least ${plural(minimum, 'item')}`;
      return `${label} must be ${params.inclusive === false ? 'more than' : 'at least'} ${minimum}`;
    }
    case 'too_big': {
      const maximum = bound(params.maximum);
      if (maximum === undefined) break;
      if (origin === 'string') return `${label} must be at most ${plural(maximum, 'character')}`;
      if (origin === 'array' || origin === 'set') return `${label} can have at most ${plural(maximum, 'item')}`;
      return `${label} must be ${params.inclusive === false ? 'less than' : 'at most'} ${maximum}`;
    }
    case 'invalid_format':
      return `${label} must be ${formatNames[String(params.format)] ?? 'in the expected format'}`;
    case 'invalid_value':
      if (Array.isArray(params.values) && params.values.length > 0 && params.values.length <= 8) {
        return `${label} must be ${params.values.length === 1 ? '' : 'one of '}${params.values.map((value) => JSON.stringify(value)).join(', ')}`;
      }
      return `${label} is not one of the allowed values`;
    case 'unrecognized_keys':
      if (Array.isArray(params.keys)) return `${label} has ${params.keys.length === 1 ? 'a field' : 'fields'} we do not know: ${params.keys.join(', ')}`;
      break;
    default:
      break;
  }
  return `${label} is not valid`;
}

function describeValidation(error: FastifyError): DescribedError {
  // Fastify types `validation` as its own issue shape; zod's issues carry `params` beside it.
  const issues: ValidationIssue[] = error.validation ?? [];
  const coded = issues.find((issue) => typeof issue.params?.params?.apiCode === 'string');
  const apiCode = coded?.params?.params?.apiCode;
  if (coded && typeof apiCode === 'string') {
    return { statusCode: apiCodeStatus[apiCode] ?? 400, code: apiCode, message: coded.message ?? 'Invalid request' };
  }
  // Sentences that say which field and what to do; the first three are plenty to act on.
  const sentences = [...new Set(issues.slice(0, 3).map((issue) => describeIssue(issue, error.validationContext)))];
  const more = issues.length > 3 ? ` (and ${plural(issues.length - 3, 'other problem')})` : '';
  return {
    statusCode: 400,
    code: 'INVALID_REQUEST',
    message: sentences.length > 0 ? `${sentences.join('. ')}${more}.` : 'The request is not valid.',
  };
}

/** What an error means for the caller; null for a failure on our side (a 5xx). */
export function describeError(error: FastifyError | Error): DescribedError | null {
  if (error instanceof ApiError) return { statusCode: error.statusCode, code: error.code, message: error.message };
  if (error instanceof DecisionError) return { statusCode: statusOfDecision[error.kind], code: error.code, message: error.message };
  if (error instanceof ConcurrencyError) {
    return { statusCode: 409, code: 'CONFLICT', message: 'Someone else changed this at the same time; reload and try again' };
  }
  if ('validation' in error && error.validation) return describeValidation(error);
  // A value the catalogue refuses came from the request (the edge schemas are the same bounds).
  if (error instanceof InvalidEventError || error instanceof UnknownEventTypeError) {
    return { statusCode: 400, code: 'INVALID_REQUEST', message: error.message };
  }
  const code = 'code' in error ? error.code : undefined;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { statusCode: 413, code: 'BODY_TOO_LARGE', message: 'Request body is too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send JSON with Content-Type: application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { statusCode: 400, code: 'INVALID_JSON', message: 'Request body must be valid JSON' };
    default:
      break;
  }
  const statusCode = 'statusCode' in error ? error.statusCode : undefined;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return statusCode === 429
      ? { statusCode, code: 'RATE_LIMITED', message: 'Too many requests; try again later' }
      : { statusCode, code: 'BAD_REQUEST', message: 'Bad request' };
  }
  return null;
}

export function apiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const described = describeError(error);
  if (described) return reply.code(described.statusCode).send(errorBody(described.code, described.message));
  if (error instanceof EventRefusedError) {
    request.log.warn({ err: error.cause ?? error, eventId: error.eventId }, 'ledger refused an event');
    return reply.code(400).send(errorBody('INVALID_EVENT', 'The request contains a value the ledger cannot store'));
  }
  if (error instanceof StoreUnavailableError) {
    request.log.warn({ err: error.cause ?? error }, 'ledger unavailable');
    return reply.code(503).header('retry-after', '2').send(errorBody('LEDGER_UNAVAILABLE', 'The ledger is unavailable; try again shortly'));
  }
  request.log.error({ err: error }, 'api request failed');
  return reply.code(500).send(errorBody('INTERNAL', 'Something went wrong on our side'));
}
