import Anthropic from '@anthropic-ai/sdk';
import {
  AccessDeniedException,
  InternalServerException,
  ModelStreamErrorException,
  ResourceNotFoundException,
  ServiceQuotaExceededException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyModelError, type ModelErrorKind } from './classify-model-error.js';

const headers = new Headers();
const aws = { $metadata: {} };

/** An error whose `cause` is `cause`, as fetch and the SDKs wrap them. */
function wrapping(message: string, cause: unknown): Error {
  return new Error(message, { cause });
}

function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });
}

/** An Anthropic SSE `error` event, as the SDK throws it mid-stream: no status, the event's type. */
function anthropicEvent(type: string, message: string) {
  return new Anthropic.APIError(undefined, { type: 'error', error: { type, message } }, undefined, headers);
}

/** An OpenAI-compatible `{"error": …}` chunk mid-stream, as the SDK throws it: no status. */
function openAIChunk(error: Record<string, unknown>) {
  return new OpenAI.APIError(undefined, error, undefined, headers);
}

describe('classifyModelError', () => {
  it.each<[string, unknown, ModelErrorKind, string]>([
    ['HTTP 401', new OpenAI.APIError(401, { message: 'bad key' }, undefined, headers), 'auth', '401'],
    ['HTTP 403', new Anthropic.APIError(403, { message: 'no' }, undefined, headers), 'auth', '403'],
    ['HTTP 404', new OpenAI.APIError(404, { message: 'no model' }, undefined, headers), 'not-found', '404'],
    ['HTTP 400', new OpenAI.APIError(400, { message: 'bad' }, undefined, headers), 'rejected', '400'],
    ['HTTP 413', new Anthropic.APIError(413, { message: 'big' }, undefined, headers), 'rejected', '413'],
    [
      'HTTP 429',
      new OpenAI.APIError(429, { message: 'slow down' }, undefined, headers),
      'unavailable',
      '429',
    ],
    ['HTTP 500', new OpenAI.APIError(500, { message: 'oops' }, undefined, headers), 'unavailable', '500'],
    [
      'HTTP 529',
      new Anthropic.APIError(529, { message: 'overloaded' }, undefined, headers),
      'unavailable',
      '529',
    ],
    [
      'AWS HTTP status',
      Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } }),
      'unavailable',
      '503',
    ],
    [
      'Anthropic overloaded_error event',
      anthropicEvent('overloaded_error', 'Overloaded'),
      'unavailable',
      'overloaded_error',
    ],
    ['Anthropic api_error event', anthropicEvent('api_error', 'Internal'), 'unavailable', 'api_error'],
    [
      'Anthropic invalid_request_error event',
      anthropicEvent('invalid_request_error', 'bad'),
      'rejected',
      'invalid_request_error',
    ],
    [
      'OpenAI-compatible chunk, numeric 502',
      openAIChunk({ message: 'Provider returned error', code: 502 }),
      'unavailable',
      '502',
    ],
    [
      'OpenAI-compatible chunk, numeric 400',
      openAIChunk({ message: 'Context too long', code: 400 }),
      'rejected',
      '400',
    ],
    [
      'OpenAI-compatible chunk, server_error',
      openAIChunk({ message: 'boom', type: 'server_error' }),
      'unavailable',
      'server_error',
    ],
    [
      'OpenAI-compatible chunk, rate_limit',
      openAIChunk({ message: 'slow', code: 'rate_limit_exceeded' }),
      'unavailable',
      'rate_limit_exceeded',
    ],
    [
      'Bedrock ValidationException',
      new ValidationException({ message: 'bad', ...aws }),
      'rejected',
      'ValidationException',
    ],
    [
      'Bedrock ThrottlingException',
      new ThrottlingException({ message: 'slow', ...aws }),
      'unavailable',
      'ThrottlingException',
    ],
    [
      'Bedrock InternalServerException',
      new InternalServerException({ message: 'x', ...aws }),
      'unavailable',
      'InternalServerException',
    ],
    [
      'Bedrock quota (a 400)',
      new ServiceQuotaExceededException({ message: 'x', $metadata: { httpStatusCode: 400 } }),
      'unavailable',
      'ServiceQuotaExceededException',
    ],
    [
      'Bedrock AccessDeniedException',
      new AccessDeniedException({ message: 'no', ...aws }),
      'auth',
      'AccessDeniedException',
    ],
    [
      'Bedrock ResourceNotFoundException',
      new ResourceNotFoundException({ message: 'no', ...aws }),
      'not-found',
      'ResourceNotFoundException',
    ],
    [
      'Bedrock modelStreamErrorException',
      new ModelStreamErrorException({ message: 'x', ...aws }),
      'unavailable',
      'ModelStreamErrorException',
    ],
    [
      'Bedrock modelStreamErrorException from a 400',
      new ModelStreamErrorException({ message: 'x', originalStatusCode: 400, ...aws }),
      'rejected',
      '400',
    ],
    [
      'refused connection, wrapped twice',
      new OpenAI.APIConnectionError({ cause: wrapping('fetch failed', socketError('ECONNREFUSED')) }),
      'unavailable',
      'ECONNREFUSED',
    ],
    [
      'refused connection, both addresses',
      wrapping('fetch failed', new AggregateError([socketError('ECONNREFUSED')])),
      'unavailable',
      'ECONNREFUSED',
    ],
    [
      'fetch refused before a socket opened',
      new OpenAI.APIConnectionError({ cause: wrapping('fetch failed', new Error('bad port')) }),
      'unavailable',
      'bad port',
    ],
    ['reset connection', socketError('ECONNRESET'), 'unavailable', 'ECONNRESET'],
    [
      'HTTP/2 stream reset',
      Object.assign(new Error('Stream closed'), { code: 'ERR_HTTP2_STREAM_ERROR' }),
      'unavailable',
      'ERR_HTTP2_STREAM_ERROR',
    ],
    [
      'stream cut (undici)',
      new TypeError('terminated', { cause: socketError('UND_ERR_SOCKET') }),
      'unavailable',
      'UND_ERR_SOCKET',
    ],
    [
      'HTTP/2 session gone (a Node code, not an event type)',
      Object.assign(new Error('The session has been destroyed'), { code: 'ERR_HTTP2_INVALID_SESSION' }),
      'unavailable',
      'ERR_HTTP2_INVALID_SESSION',
    ],
    [
      'connect timeout (undici)',
      socketError('UND_ERR_CONNECT_TIMEOUT'),
      'unavailable',
      'UND_ERR_CONNECT_TIMEOUT',
    ],
    [
      'a connection error whose class name a bundler mangled',
      Object.assign(
        new Error('Connection error.', { cause: wrapping('fetch failed', new Error('bad port')) }),
        {
          status: undefined,
        },
      ),
      'unavailable',
      'bad port',
    ],
    ['stream cut, no cause', new TypeError('terminated'), 'unavailable', 'terminated'],
    ['anything unnamed', new Error('what'), 'unavailable', 'Error'],
  ])('%s is %s', (_, error, kind, signal) => {
    expect(classifyModelError(error)).toMatchObject({ kind, signal });
  });

  it('keeps the provider’s own message, and says whether a connection never opened or broke', () => {
    expect(classifyModelError(anthropicEvent('overloaded_error', 'Overloaded')).message).toBe('Overloaded');
    expect(classifyModelError(openAIChunk({ message: 'Provider returned error', code: 502 })).message).toBe(
      'Provider returned error',
    );
    expect(classifyModelError(socketError('ECONNREFUSED')).connection).toBe('refused');
    expect(classifyModelError(socketError('UND_ERR_CONNECT_TIMEOUT')).connection).toBe('refused');
    expect(classifyModelError(new TypeError('terminated')).connection).toBe('broken');
  });
});
