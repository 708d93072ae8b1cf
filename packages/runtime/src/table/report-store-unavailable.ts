import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import type { SdkError } from '@smithy/types';
import { StoreUnavailableError } from '../errors.js';

const NAME = 'agentstepStoreUnavailable';

/**
 * Makes every request of `client` that fails for want of a store, once the SDK's own retries are
 * spent, throw {@link StoreUnavailableError} with the SDK's error as its `cause`: a connection
 * refused or reset, a timeout, a server error or throttling, as the SDK's retry strategy classifies
 * them. Every other error (a failed condition, a bad request) leaves as the SDK threw it. The
 * middleware wraps the whole stack, retries included; adding it again replaces it.
 */
export function reportStoreUnavailable(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (!isStoreFailure(error)) throw error;
        throw new StoreUnavailableError(reasonOf(error), { cause: error });
      }
    },
    { name: NAME, step: 'initialize', priority: 'high', override: true },
  );
}

function isStoreFailure(error: unknown): error is SdkError {
  if (!(error instanceof Error)) return false;
  const sdkError = error as SdkError;
  return isTransientError(sdkError) || isThrottlingError(sdkError) || isServerError(sdkError);
}

function reasonOf(error: SdkError): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name}: ${code}` : `${error.name}: ${error.message}`;
}
