import { type ErrorBody, type FieldProblem, fieldProblems } from '@agentstep/protocol';
import { StoreUnavailableError } from '@agentstep/runtime';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as z from 'zod';

/** A request the API refuses, with the status and code a client can act on. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly fields: FieldProblem[] | undefined;
  /** When to ask again, in seconds (the `Retry-After` header), for a refusal that ends in time. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    fields?: FieldProblem[],
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = code;
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The response body. */
  body(): ErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) },
    };
  }
}

/** 404 for a session that does not exist, or that belongs to another tenant (never told apart). */
export function sessionNotFound(session: string): ApiError {
  return new ApiError(404, 'SessionNotFound', `Session ${session} was not found.`);
}

/** 400 for a body or query that does not validate, each problem in `fields`. */
export function validationError(what: string, error: z.ZodError): ApiError {
  const fields = fieldProblems(error, 'is not a field this route takes');
  return new ApiError(400, 'ValidationError', `The ${what} does not match what this route takes.`, fields);
}

/**
 * What the client is told of any error that ends a request: an {@link ApiError} as it is, a store
 * that cannot be reached as 503 `StoreUnavailable` (safe to retry), anything else as a 500 that
 * names nothing of the server, its error logged.
 */
export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreUnavailableError) return new ApiError(503, error.name, error.message);
  console.error(error);
  return new ApiError(500, 'InternalError', 'The request failed on the server.');
}
