import { ERROR_NAMES } from '@agentstep/protocol';

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

/** The provider is throttling or failing, after the client's own retries. */
export class ModelUnavailableError extends Error {
  override readonly name = ERROR_NAMES.modelUnavailable;
}

/**
 * A provider SDK's failure as the error the state machine routes on: a refused key, an unknown
 * model or a rejected request is final and says what to fix; anything else (throttling and 5xx after the SDK's own
 * retries, a lost connection) may pass with time.
 */
export function explainModelError(error: unknown, where: string, keyVariable: string): unknown {
  if (!(error instanceof Error)) return error;
  const status = statusOf(error);
  if (status === 401 || status === 403) {
    return new ModelAuthFailedError(
      `${where} refused the API key (${status}): set ${keyVariable} to a valid key.`,
    );
  }
  if (status === 404)
    return new ModelNotFoundError(`${where} was not found (404): check the model id and the base URL.`);
  if (status === 400 || status === 422)
    return new ModelRejectedRequestError(`${where} rejected the request (${status}): ${error.message}`);
  if (status !== undefined || /connection|timeout|throttl|unavailable/i.test(error.name)) {
    return new ModelUnavailableError(`${where} is unavailable: ${error.message}`);
  }
  return error;
}

/** The HTTP status of a provider SDK's error: `status` (OpenAI, Anthropic) or `$metadata` (AWS). */
function statusOf(error: Error): number | undefined {
  if ('status' in error && typeof error.status === 'number') return error.status;
  const metadata = '$metadata' in error ? (error.$metadata as { httpStatusCode?: unknown }) : undefined;
  return typeof metadata?.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
}
