// Ingest's answers for what goes wrong: the caller's mistakes are 4xx with a code and a clear
// message, an unavailable ledger is 503 (the widget keeps the event and retries), and anything else
// is a 500 whose internal message never leaves the server.
import { InvalidEventError, UnknownEventTypeError } from '@consentry/events';
import { EventRefusedError, StoreUnavailableError } from '@consentry/infra';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

export class IngestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'IngestError';
  }
}

export const errorBody = (code: string, message: string) => ({ error: { code, message } });

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function describeValidation(error: FastifyError): string {
  const issues = (error.validation ?? []) as ValidationIssue[];
  const parts = issues.slice(0, 5).map((issue) => {
    const path = issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') || 'body';
    return `${path}: ${issue.message ?? 'invalid'}`;
  });
  return parts.length > 0 ? `Invalid request: ${parts.join('; ')}` : 'Invalid request';
}

export function ingestErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof IngestError) return reply.code(error.statusCode).send(errorBody(error.code, error.message));
  if (error.validation) return reply.code(400).send(errorBody('INVALID_REQUEST', describeValidation(error)));
  if (error instanceof InvalidEventError || error instanceof UnknownEventTypeError) {
    return reply.code(400).send(errorBody('INVALID_EVENT', error.message));
  }
  if (error instanceof EventRefusedError) {
    request.log.warn({ err: error.cause ?? error, eventId: error.eventId }, 'ledger refused an event');
    return reply.code(400).send(errorBody('INVALID_EVENT', 'The event contains a value the ledger cannot store'));
  }
  if (error instanceof StoreUnavailableError) {
    request.log.warn({ err: error.cause ?? error }, 'ledger unavailable');
    return reply.code(503).header('retry-after', '2').send(errorBody('LEDGER_UNAVAILABLE', 'The ledger cannot record events right now; try again shortly'));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply.code(413).send(errorBody('BODY_TOO_LARGE', 'Request body must be at most 4096 bytes'));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply.code(415).send(errorBody('UNSUPPORTED_MEDIA_TYPE', 'Send JSON as text/plain or application/json'));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return reply.code(400).send(errorBody('INVALID_JSON', 'Request body must be a JSON object'));
    default:
      break;
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    const code = error.statusCode === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST';
    const message = error.statusCode === 429 ? 'Too many requests; try again later' : 'Bad request';
    return reply.code(error.statusCode).send(errorBody(code, message));
  }
  request.log.error({ err: error }, 'ingest request failed');
  return reply.code(500).send(errorBody('INTERNAL', 'Something went wrong on our side'));
}
