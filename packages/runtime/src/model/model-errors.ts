import { ERROR_NAMES } from '@agentstep/protocol';

/** The provider refused the credentials. */
export class ModelAuthFailedError extends Error {
  override readonly name = ERROR_NAMES.modelAuthFailed;
}

/** The provider does not know the model. */
export class ModelNotFoundError extends Error {
  override readonly name = ERROR_NAMES.modelNotFound;
}

/** The provider is throttling or failing, after the client's own retries. */
export class ModelUnavailableError extends Error {
  override readonly name = ERROR_NAMES.modelUnavailable;
}
