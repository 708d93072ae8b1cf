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
import type { ContextFigures } from './context-refusal.js';

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

describe('classifyModelError on a request longer than the context window', () => {
  const openAI400 = (error: Record<string, unknown>) => new OpenAI.APIError(400, error, undefined, headers);
  const validation = (message: string) =>
    new ValidationException({ message, $metadata: { httpStatusCode: 400 } });

  // The messages are the providers' own, as public reports and recordings quote them.
  it.each<[string, unknown, ContextFigures]>([
    [
      'OpenAI context_length_exceeded',
      openAI400({
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 149767 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      }),
      { limitTokens: 128_000, requestTokens: 149_767 },
    ],
    [
      'OpenAI context_length_exceeded, without figures',
      openAI400({
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        param: 'input',
        code: 'context_length_exceeded',
      }),
      {},
    ],
    [
      'an OpenAI-compatible error chunk mid-stream',
      openAIChunk({ message: 'too many tokens', code: 'context_length_exceeded' }),
      {},
    ],
    [
      'OpenRouter, input apart from the output',
      openAI400({
        message:
          'This endpoint\'s maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
        code: 400,
      }),
      { limitTokens: 32_768, requestTokens: 42_832 },
    ],
    [
      'vLLM, the input over the window with the answer asked for',
      openAI400({
        message:
          "This model's maximum context length is 8192 tokens. However, you requested 100 output tokens and your prompt contains at least 8093 input tokens, for a total of at least 8193 tokens. Please reduce the length of the input prompt or the number of requested output tokens.",
        type: 'BadRequestError',
        param: null,
        code: 400,
      }),
      { limitTokens: 8192, requestTokens: 8093 },
    ],
    [
      'llama.cpp, figures in the message',
      openAI400({
        code: 400,
        message: 'request (20001 tokens) exceeds the available context size (8192 tokens), try increasing it',
        type: 'exceed_context_size_error',
      }),
      { limitTokens: 8192, requestTokens: 20_001 },
    ],
    [
      'xAI, an error body that is a string',
      new OpenAI.APIError(
        400,
        "This model's maximum prompt length is 256000 but the request contains 332986 tokens.",
        undefined,
        headers,
      ),
      { limitTokens: 256_000, requestTokens: 332_986 },
    ],
    [
      'an Anthropic invalid_request_error event',
      anthropicEvent('invalid_request_error', 'prompt is too long: 274468 tokens > 200000 maximum'),
      { limitTokens: 200_000, requestTokens: 274_468 },
    ],
    [
      'Bedrock, Claude',
      validation(
        'The model returned the following errors: prompt is too long: 207848 tokens > 200000 maximum',
      ),
      { limitTokens: 200_000, requestTokens: 207_848 },
    ],
    [
      'Bedrock, Claude without figures',
      validation('The model returned the following errors: Input is too long for requested model.'),
      {},
    ],
    [
      'Bedrock, Nova',
      validation(
        'The model returned the following errors: Input Tokens Exceeded: Number of input tokens exceeds maximum length. Please update the input to try again.',
      ),
      {},
    ],
    [
      'Bedrock, Llama',
      validation(
        "The model returned the following errors: This model's maximum context length is 131072 tokens. Please reduce the length of the prompt",
      ),
      { limitTokens: 131_072 },
    ],
    [
      'Bedrock, Titan',
      validation(
        '400 Bad Request: Too many input tokens. Max input tokens: 8192, request input token count: 9279 ',
      ),
      { limitTokens: 8192, requestTokens: 9279 },
    ],
  ])('tells %s apart, with the figures it states', (_, error, figures) => {
    const failure = classifyModelError(error);
    expect(failure.kind).toBe('context-too-long');
    expect(failure.figures).toEqual(figures);
  });

  it.each<[string, unknown]>([
    [
      'Anthropic, max_tokens over the model’s output limit',
      anthropicEvent(
        'invalid_request_error',
        'max_tokens: 10000 > 4096, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20240620',
      ),
    ],
    [
      'Bedrock, max tokens over the model’s limit',
      validation(
        'The maximum tokens you requested exceeds the model limit of 2048. Try again with a maximum tokens value that is lower than 2048.',
      ),
    ],
    [
      'OpenAI, one message over the string limit',
      openAI400({
        message:
          "Invalid 'messages[17].content': string too long. Expected a string with maximum length 1048576, but got a string with length 1744259 instead.",
        type: 'invalid_request_error',
        param: 'messages[17].content',
        code: 'string_above_max_length',
      }),
    ],
  ])('leaves %s rejected: a shorter context would not help', (_, error) => {
    expect(classifyModelError(error)).toMatchObject({ kind: 'rejected' });
    expect(classifyModelError(error).figures).toBeUndefined();
  });

  it('leaves a token rate limit unavailable, whatever its message says about size', () => {
    const error = new OpenAI.APIError(
      429,
      {
        message:
          'Request too large for gpt-5-nano in organization org-test on tokens per min (TPM): Limit 200000, Requested 480002. The input or output tokens must be reduced in order to run successfully.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
      undefined,
      headers,
    );
    expect(classifyModelError(error).kind).toBe('unavailable');
  });
});
