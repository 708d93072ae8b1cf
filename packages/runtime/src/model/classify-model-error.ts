import { type ContextFigures, contextRefusalOf } from './context-refusal.js';

/**
 * Which named error a provider failure is: only `unavailable` may pass with time;
 * `context-too-long` is a request refused as longer than the model's context window.
 */
export type ModelErrorKind = 'unavailable' | 'rejected' | 'context-too-long' | 'not-found' | 'auth';

/** A provider failure, classified from what the SDK threw. */
export interface ModelFailure {
  kind: ModelErrorKind;
  /** What the classification read: `429`, `overloaded_error`, `ValidationException`, `ECONNREFUSED`. */
  signal: string;
  /** The provider's own message, when it sent one. */
  message: string;
  /** For a socket failure: whether the connection never opened or broke while open. */
  connection?: 'refused' | 'broken';
  /** For `context-too-long`: the window and the input, in tokens, where the provider stated them. */
  figures?: ContextFigures;
}

/** AWS exception names (also thrown inside a ConverseStream event stream) that say what they are. */
const AWS_NAMES: Readonly<Record<string, ModelErrorKind>> = {
  AccessDeniedException: 'auth',
  UnrecognizedClientException: 'auth',
  ExpiredTokenException: 'auth',
  InvalidSignatureException: 'auth',
  IncompleteSignatureException: 'auth',
  CredentialsProviderError: 'auth',
  ResourceNotFoundException: 'not-found',
  ValidationException: 'rejected',
  // Bedrock answers 400 for a spent quota, which passes with time like any throttling.
  ServiceQuotaExceededException: 'unavailable',
  ThrottlingException: 'unavailable',
  ServiceUnavailableException: 'unavailable',
  InternalServerException: 'unavailable',
  ModelStreamErrorException: 'unavailable',
  ModelTimeoutException: 'unavailable',
  ModelNotReadyException: 'unavailable',
  ModelErrorException: 'unavailable',
};

/**
 * An error event's own type or code (Anthropic's `overloaded_error`, OpenAI's `rate_limit_exceeded`,
 * an OpenAI-compatible `server_error`), first match wins.
 */
const EVENT_TYPES: ReadonlyArray<readonly [RegExp, ModelErrorKind]> = [
  [/auth|permission|api_key|unauthori[sz]ed|forbidden|access_denied/i, 'auth'],
  [/not_found|model_not_found|does_not_exist/i, 'not-found'],
  [/overload|server|internal|unavailable|timeout|rate_limit|throttl|capacity|busy|api_error/i, 'unavailable'],
  [/invalid|validation|bad_request|too_large|context_length|unsupported/i, 'rejected'],
];

/** Socket codes of a connection that never opened; any other socket code is one that broke. */
const REFUSED = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/;
const SOCKET = /^(E[A-Z]+|UND_ERR_[A-Z_]+|ERR_HTTP2_[A-Z_]+|ERR_STREAM_PREMATURE_CLOSE)$/;

/**
 * Classifies a provider SDK's failure, from the strongest signal it carries: the status code a
 * stream error reports from the model (Bedrock), the AWS exception name, the HTTP status, the
 * error event's own type or code (errors inside a stream have no status), the socket code in its
 * `cause` chain (the SDKs wrap fetch failures; undici says `terminated` for a cut stream).
 * Anything else is `unavailable`: a failure nothing names may pass with time, and is retried.
 * A rejected request whose code or message says it is longer than the model's context window
 * (`context_length_exceeded`, `prompt is too long: …`) is `context-too-long`, with its figures.
 */
export function classifyModelError(error: unknown): ModelFailure {
  const failure = failureOf(error);
  if (failure.kind !== 'rejected') return failure;
  const figures = contextRefusalOf(error, failure.message);
  return figures === undefined ? failure : { ...failure, kind: 'context-too-long', figures };
}

/** The failure by its strongest signal, before a refusal is told apart by what it refused. */
function failureOf(error: unknown): ModelFailure {
  const message = providerMessageOf(error);
  const streamStatus = numberField(error, 'originalStatusCode');
  if (streamStatus !== undefined && streamStatus >= 400) return byStatus(streamStatus, message);
  const name = error instanceof Error ? error.name : '';
  const named = AWS_NAMES[name];
  if (named !== undefined) return { kind: named, signal: name, message };
  const status = statusOf(error);
  if (status !== undefined) return byStatus(status, message);
  const type = eventTypeOf(error);
  const typed = type === undefined ? undefined : EVENT_TYPES.find(([pattern]) => pattern.test(type));
  if (type !== undefined && typed !== undefined) return { kind: typed[1], signal: type, message };
  return (
    connectionFailureOf(error, message) ?? { kind: 'unavailable', signal: name || 'unknown error', message }
  );
}

/**
 * A connection that never opened or broke, by the socket code along the `cause` chain, or the
 * OpenAI and Anthropic SDKs' `Connection error.` (fetch failed before any socket opened: its
 * innermost cause says why, such as `bad port`).
 */
function connectionFailureOf(error: unknown, message: string): ModelFailure | undefined {
  const socket = socketCodeOf(error);
  if (socket !== undefined) {
    const connection = REFUSED.test(socket) ? 'refused' : 'broken';
    return { kind: 'unavailable', signal: socket, message, connection };
  }
  // By its shape, not its class name, which bundling may mangle: no status, a fetch failure as cause.
  if (!(error instanceof Error) || !isConnectionError(error)) return undefined;
  return { kind: 'unavailable', signal: deepestCauseOf(error).message, message, connection: 'refused' };
}

/** The OpenAI and Anthropic SDKs' `APIConnectionError`: `Connection error.`, no status, the fetch failure its cause. */
function isConnectionError(error: Error): boolean {
  return (
    error.message === 'Connection error.' &&
    field(error, 'status') === undefined &&
    error.cause instanceof Error
  );
}

/** The innermost error of a `cause` chain. */
function deepestCauseOf(error: Error): Error {
  let deepest = error;
  for (let depth = 0; deepest.cause instanceof Error && depth < 8; depth++) deepest = deepest.cause;
  return deepest;
}

function byStatus(status: number, message: string): ModelFailure {
  const signal = String(status);
  if (status === 401 || status === 403) return { kind: 'auth', signal, message };
  if (status === 404) return { kind: 'not-found', signal, message };
  const passes = status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
  return { kind: passes ? 'unavailable' : 'rejected', signal, message };
}

/** An HTTP status of 400 or more: `status` (OpenAI, Anthropic), `$metadata` (AWS), a numeric error-event `code`. */
function statusOf(error: unknown): number | undefined {
  const metadata = field(error, '$metadata');
  const candidates = [
    numberField(error, 'status'),
    numberField(metadata, 'httpStatusCode'),
    numberField(error, 'code'),
    numberField(field(error, 'error'), 'code'),
  ];
  return candidates.find((status) => status !== undefined && status >= 400);
}

/** The type or code an error event names itself by (Anthropic's `type`, OpenAI's `code` and `type`). */
function eventTypeOf(error: unknown): string | undefined {
  const body = field(error, 'error');
  const candidates = [
    field(error, 'type'),
    field(error, 'code'),
    field(body, 'code'),
    field(body, 'type'),
    field(field(body, 'error'), 'type'),
  ];
  // Node's and undici's own codes (`ECONNRESET`, `ERR_HTTP2_INVALID_SESSION`) are socket codes, not event types.
  return candidates.find(
    (value): value is string => typeof value === 'string' && value !== 'error' && !SOCKET.test(value),
  );
}

/** The first socket code along the `cause` chain (and an `AggregateError`'s errors); `terminated` for a cut stream. */
function socketCodeOf(error: unknown, depth = 0): string | undefined {
  if (!(error instanceof Error) || depth > 8) return undefined;
  const code = field(error, 'code');
  if (typeof code === 'string' && SOCKET.test(code)) return code;
  const inner = error instanceof AggregateError ? [...error.errors, error.cause] : [error.cause];
  for (const next of inner) {
    const found = socketCodeOf(next, depth + 1);
    if (found !== undefined) return found;
  }
  return error instanceof TypeError && error.message === 'terminated' ? 'terminated' : undefined;
}

/** The provider's own message: the error body's, else the error's. */
function providerMessageOf(error: unknown): string {
  const body = field(error, 'error');
  const nested = [field(field(body, 'error'), 'message'), field(body, 'message'), field(error, 'apiMessage')];
  const text = nested.find((value): value is string => typeof value === 'string' && value !== '');
  if (text !== undefined) return text;
  return error instanceof Error ? error.message : String(error);
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function numberField(value: unknown, key: string): number | undefined {
  const found = field(value, key);
  return typeof found === 'number' ? found : undefined;
}
