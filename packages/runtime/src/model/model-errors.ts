import { ERROR_NAMES } from '@agentstep/protocol';
import { classifyModelError } from './classify-model-error.js';

/** The provider refused the credentials. */
export class ModelAuthFailedError extends Error {
  override readonly name = ERROR_NAMES.modelAuthFailed;
}

/** The provider does not know the model. */
export class ModelNotFoundError extends Error {
  override readonly name = ERROR_NAMES.modelNotFound;
}

/** The provider refused the request as malformed or unsupported for the model. */
export class ModelRejectedRequestError extends Error {
  override readonly name = ERROR_NAMES.modelRejectedRequest;
}

/**
 * The provider refused the request as longer than the model's context window: the step compacts
 * and tries once more (decision 0035). `limitTokens` and `requestTokens` are the figures the
 * provider's message gave, when it gave them.
 */
export class ContextTooLongError extends Error {
  override readonly name = ERROR_NAMES.contextTooLong;
  constructor(
    message: string,
    readonly figures: { limitTokens?: number; requestTokens?: number } = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The provider is throttling, overloaded or failing, or the connection failed or was cut: retried. */
export class ModelUnavailableError extends Error {
  override readonly name = ERROR_NAMES.modelUnavailable;
}

/** Where a provider request went, for error messages. */
export interface ModelErrorContext {
  /** The model as the provider names it, with where it lives: `m at http://localhost:11434/v1`. */
  where: string;
  /** The base URL, named in connection failures. */
  url?: string | undefined;
  /** What to set when the credentials are refused: `OPENAI_API_KEY`. */
  credentials: string;
}

const NAMED = [
  ModelAuthFailedError,
  ModelNotFoundError,
  ModelRejectedRequestError,
  ContextTooLongError,
  ModelUnavailableError,
];

/**
 * A provider SDK's failure, before or during the stream, as the error the state machine routes on
 * ({@link classifyModelError}): a refused key, an unknown model or a rejected request is final and
 * says what to fix with the provider's own message; a request longer than the model's context
 * window is `ContextTooLong`, with the figures the provider stated; anything else (throttling,
 * overload, 5xx, a connection refused or cut) is `ModelUnavailable`, which Step Functions retries.
 * The SDK's error is the `cause`.
 */
export function explainModelError(error: unknown, context: ModelErrorContext): Error {
  if (NAMED.some((named) => error instanceof named)) return error as Error;
  const { kind, signal, message, connection, figures } = classifyModelError(error);
  const { where, url, credentials } = context;
  const options = { cause: error };
  if (kind === 'auth')
    return new ModelAuthFailedError(
      `${where} refused the API key (${signal}): set ${credentials} to a valid key. ${message}`,
      options,
    );
  if (kind === 'not-found')
    return new ModelNotFoundError(
      `${where} was not found (${signal}): check the model id and the base URL. ${message}`,
      options,
    );
  if (kind === 'rejected')
    return new ModelRejectedRequestError(`${where} rejected the request (${signal}): ${message}`, options);
  if (kind === 'context-too-long')
    return new ContextTooLongError(
      `${where} refused the request as longer than the model's context window (${signal}): shorten the context or use a model with a larger window. ${message}`,
      figures,
      options,
    );
  if (connection === 'refused')
    return new ModelUnavailableError(`cannot connect to ${url ?? where}: ${signal}`, options);
  if (connection === 'broken')
    return new ModelUnavailableError(
      `${where}: the connection to ${url ?? 'the provider'} broke (${signal}); the step is retried.`,
      options,
    );
  return new ModelUnavailableError(`${where} is unavailable (${signal}): ${message}`, options);
}

/** A stream that ended without its terminal event (`terminal`): cut, so retried, never a finished step. */
export function truncatedStreamError(context: ModelErrorContext, terminal: string): ModelUnavailableError {
  return new ModelUnavailableError(
    `${context.where}: the stream ended before its ${terminal}, so the output may be cut short; the step is retried.`,
  );
}
