import type * as z from 'zod';
import { apiErrorOf } from '../api-error.js';

/** An A2A error's codes: JSON-RPC's, the HTTP+JSON binding's status, and the reason both name. */
interface A2aErrorKind {
  code: number;
  httpStatus: number;
  status: string;
  reason: string;
}

const KINDS = {
  taskNotFound: { code: -32001, httpStatus: 404, status: 'NOT_FOUND', reason: 'TASK_NOT_FOUND' },
  taskNotCancelable: {
    code: -32002,
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    reason: 'TASK_NOT_CANCELABLE',
  },
  pushNotSupported: {
    code: -32003,
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  },
  unsupportedOperation: {
    code: -32004,
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    reason: 'UNSUPPORTED_OPERATION',
  },
  contentTypeNotSupported: {
    code: -32005,
    httpStatus: 400,
    status: 'INVALID_ARGUMENT',
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
  },
  versionNotSupported: {
    code: -32009,
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    reason: 'VERSION_NOT_SUPPORTED',
  },
  invalidParams: { code: -32602, httpStatus: 400, status: 'INVALID_ARGUMENT', reason: 'INVALID_PARAMS' },
  methodNotFound: { code: -32601, httpStatus: 404, status: 'NOT_FOUND', reason: 'METHOD_NOT_FOUND' },
  invalidRequest: { code: -32600, httpStatus: 400, status: 'INVALID_ARGUMENT', reason: 'INVALID_REQUEST' },
  parseError: { code: -32700, httpStatus: 400, status: 'INVALID_ARGUMENT', reason: 'PARSE_ERROR' },
  internal: { code: -32603, httpStatus: 500, status: 'INTERNAL', reason: 'INTERNAL' },
  unavailable: { code: -32603, httpStatus: 503, status: 'UNAVAILABLE', reason: 'UNAVAILABLE' },
} as const satisfies Record<string, A2aErrorKind>;

/** The kinds of A2A errors this server answers with. */
export type A2aErrorName = keyof typeof KINDS;

/** An error as A2A names it, for either binding to write: JSON-RPC's `error`, or HTTP+JSON's. */
export class A2aError extends Error {
  readonly kind: A2aErrorKind;

  constructor(name: A2aErrorName, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'A2aError';
    this.kind = KINDS[name];
  }

  /** `google.rpc.ErrorInfo`, as both bindings put it in their error's details. */
  get details(): object[] {
    return [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: this.kind.reason,
        domain: 'a2a-protocol.org',
      },
    ];
  }

  /** The JSON-RPC error object. */
  get jsonRpc(): { code: number; message: string; data: object[] } {
    return { code: this.kind.code, message: this.message, data: this.details };
  }

  /** The HTTP+JSON binding's error body (`google.rpc.Status`). */
  get rest(): { error: { code: number; status: string; message: string; details: object[] } } {
    const { httpStatus, status } = this.kind;
    return { error: { code: httpStatus, status, message: this.message, details: this.details } };
  }
}

/** A task id that names no task of the caller's. */
export function taskNotFound(id: string): A2aError {
  return new A2aError('taskNotFound', `Task ${id} was not found.`);
}

/** Params that do not fit their method: each problem in one sentence. */
export function invalidParams(method: string, error: z.ZodError): A2aError {
  const problems = error.issues.map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`);
  return new A2aError('invalidParams', `Invalid params for ${method}: ${problems.join('; ')}.`);
}

/**
 * Any error as A2A's: an `A2aError` as it is; the API's refusals (a session busy, a tenant
 * suspended) as unsupported operations saying why; a store that cannot be reached as unavailable
 * (503, safe to retry); any other failure as internal, logged, its message naming nothing of the
 * server (as every route answers them).
 */
export function a2aErrorOf(error: unknown): A2aError {
  if (error instanceof A2aError) return error;
  const refusal = apiErrorOf(error);
  const said = `${refusal.code}: ${refusal.message}`;
  if (refusal.status === 503) return new A2aError('unavailable', said, { cause: error });
  return new A2aError(refusal.status < 500 ? 'unsupportedOperation' : 'internal', said, { cause: error });
}

/** The headers an A2A error's answer carries: `Retry-After` when it is safe to retry soon. */
export function a2aErrorHeaders(error: A2aError): Record<string, string> {
  return error.kind.httpStatus === 503 ? { 'retry-after': '1' } : {};
}
