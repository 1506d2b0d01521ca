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
  instancePath?: string;
  message?: string;
  params?: { params?: { apiCode?: unknown } };
}

export interface DescribedError {
  readonly statusCode: number;
  readonly code: string;
  readonly message: string;
}

function describeValidation(error: FastifyError): DescribedError {
  // Fastify types `validation` as its own issue shape; zod's issues carry `params` beside it.
  const issues: ValidationIssue[] = error.validation ?? [];
  const coded = issues.find((issue) => typeof issue.params?.params?.apiCode === 'string');
  const apiCode = coded?.params?.params?.apiCode;
  if (coded && typeof apiCode === 'string') {
    return { statusCode: apiCodeStatus[apiCode] ?? 400, code: apiCode, message: coded.message ?? 'Invalid request' };
  }
  const parts = issues.slice(0, 5).map((issue) => {
    const path = issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') || error.validationContext || 'body';
    return `${path}: ${issue.message ?? 'invalid'}`;
  });
  return { statusCode: 400, code: 'INVALID_REQUEST', message: parts.length > 0 ? `Invalid request: ${parts.join('; ')}` : 'Invalid request' };
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
