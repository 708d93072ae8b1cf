import type { ErrorBody } from '@agentstep/protocol';
import { AgentStepApiError } from './errors.js';

type ErrorFields = ErrorBody['error'];

/**
 * The error a refused response carries: the API's `{"error": {"code", "message", "fields"?}}`, or,
 * for a body of another shape (a proxy's HTML page, say), `UnexpectedResponse` quoting its start.
 */
export async function readApiError(response: Response): Promise<AgentStepApiError> {
  const text = await response.text();
  const error = errorFieldsOf(text);
  if (error) return new AgentStepApiError(response.status, error.code, error.message, error.fields);
  const quoted = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return new AgentStepApiError(
    response.status,
    'UnexpectedResponse',
    `HTTP ${response.status} with a body that is not an AgentStep error (is baseUrl the AgentStep API?): ${quoted || '(empty)'}`,
  );
}

/**
 * The failure an `event: error` frame ends a stream with (the store was unavailable, say): the
 * API's error body, as a server error (503 for `StoreUnavailable`, else 500) that a reconnect may outlive.
 */
export function streamFailure(data: string): AgentStepApiError {
  const error = errorFieldsOf(data);
  if (error === undefined)
    return new AgentStepApiError(
      500,
      'StreamFailed',
      `The stream failed on the server: ${data.slice(0, 200)}`,
    );
  return new AgentStepApiError(error.code === 'StoreUnavailable' ? 503 : 500, error.code, error.message);
}

function errorFieldsOf(text: string): ErrorFields | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (body as { error?: Partial<ErrorFields> } | null)?.error;
  if (typeof error?.code !== 'string' || typeof error.message !== 'string') return undefined;
  return {
    code: error.code,
    message: error.message,
    ...(Array.isArray(error.fields) ? { fields: error.fields } : {}),
  };
}
