import type { ModelMessage } from '@agentstep/protocol';
import Anthropic from '@anthropic-ai/sdk';
import type { RequestEnd } from './continue-at-stops.js';
import type { ModelPart, ModelRequest } from './model.js';
import { explainModelError, type ModelErrorContext, truncatedStreamError } from './model-errors.js';
import { usageWithCacheApart } from './model-usage.js';
import { ProviderModel } from './provider-model.js';

/** Options of {@link AnthropicModel}. */
export interface AnthropicModelOptions {
  model: string;
  /** @default Anthropic's API */
  baseURL?: string | undefined;
  /** @default the SDK's ANTHROPIC_API_KEY */
  apiKey?: string | undefined;
  /** @default a client from the options above, with the SDK's retries */
  client?: Anthropic;
  /** The most tokens an answer may take, unless a request says otherwise. @default 4096 */
  maxTokens?: number;
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Anthropic's usage counters, as `message_start` reports them and `message_delta` updates them. */
interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/**
 * A model behind Anthropic's Messages API, streamed. The stable prefix, the system prompt and the
 * history up to the newest message, is marked with `cache_control`, so every later step of a
 * session reads it from the prompt cache. Stop sequences are handled as A7 says; a continuation
 * prefills the assistant's message with the output so far.
 */
export class AnthropicModel extends ProviderModel {
  readonly #client: Anthropic;
  readonly #options: AnthropicModelOptions;

  constructor(options: AnthropicModelOptions) {
    super(`anthropic:${options.model}`);
    this.#options = options;
    // The SDK reads its defaults (key and URL variables) where these are undefined.
    this.#client = options.client ?? new Anthropic({ baseURL: options.baseURL, apiKey: options.apiKey });
  }

  protected async *request(
    request: ModelRequest,
    prefill: string,
    stops: readonly string[],
  ): AsyncGenerator<ModelPart, RequestEnd> {
    const counters: AnthropicUsage = {};
    let end: RequestEnd = { stopped: false };
    let stopped = false;
    try {
      const stream = this.#client.messages.stream({
        model: this.#options.model,
        max_tokens: request.maxOutputTokens ?? this.#options.maxTokens ?? 4096,
        ...(stops.length > 0 ? { stop_sequences: [...stops] } : {}),
        system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }],
        messages: [
          ...request.messages.map(toAnthropicMessage),
          ...(prefill ? [{ role: 'assistant' as const, content: prefill }] : []),
        ],
      });
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield event.delta.text;
        // A `signature_delta` only seals the thinking for sending it back, which this model never does.
        if (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta')
          yield { reasoning: event.delta.thinking };
        if (event.type === 'message_start') Object.assign(counters, event.message.usage);
        if (event.type === 'message_delta') {
          Object.assign(counters, withoutNulls(event.usage));
          end = {
            stopped: event.delta.stop_reason === 'stop_sequence',
            sequence: event.delta.stop_sequence ?? undefined,
          };
        }
        if (event.type === 'message_stop') stopped = true;
      }
    } catch (error) {
      // Before the stream or inside it (an SSE `error` event such as `overloaded_error`, a cut).
      throw explainModelError(error, this.#context());
    }
    if (!stopped) throw truncatedStreamError(this.#context(), '`message_stop` event');
    yield usageWithCacheApart({
      uncachedInput: counters.input_tokens,
      output: counters.output_tokens,
      cacheRead: counters.cache_read_input_tokens,
      cacheWrite: counters.cache_creation_input_tokens,
    });
    return end;
  }

  #context(): ModelErrorContext {
    const url = this.#client.baseURL;
    return { where: `${this.#options.model} at ${url}`, url, credentials: 'ANTHROPIC_API_KEY' };
  }
}

function withoutNulls(usage: AnthropicUsage): AnthropicUsage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== null));
}

/** A message as a text block; the newest one carries the cache breakpoint that closes the prefix. */
function toAnthropicMessage(message: ModelMessage, index: number, messages: readonly ModelMessage[]) {
  const last = index === messages.length - 1;
  return {
    role: message.role,
    content: [
      { type: 'text' as const, text: message.content, ...(last ? { cache_control: EPHEMERAL } : {}) },
    ],
  };
}
