import type { ModelMessage } from '@agentstep/protocol';
import Anthropic from '@anthropic-ai/sdk';
import type { Model, ModelRequest } from './model.js';
import { explainModelError } from './model-errors.js';
import { restoreStoppedCloser } from './restore-stopped-closer.js';

/** Options of {@link AnthropicModel}. */
export interface AnthropicModelOptions {
  model: string;
  /** @default Anthropic's API */
  baseURL?: string | undefined;
  /** @default the SDK's ANTHROPIC_API_KEY */
  apiKey?: string | undefined;
  /** @default a client from the options above, with the SDK's retries */
  client?: Anthropic;
  /** @default 4096 */
  maxTokens?: number;
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * A model behind Anthropic's Messages API, streamed. The stable prefix, the system prompt and the
 * history up to the newest message, is marked with `cache_control`, so every later step of a
 * session reads it from the prompt cache. A swallowed `</execute>` is restored (A7).
 */
export class AnthropicModel implements Model {
  readonly #client: Anthropic;
  readonly #options: AnthropicModelOptions;

  constructor(options: AnthropicModelOptions) {
    this.#options = options;
    // The SDK reads its defaults (key and URL variables) where these are undefined.
    this.#client = options.client ?? new Anthropic({ baseURL: options.baseURL, apiKey: options.apiKey });
  }

  async *stream(request: ModelRequest): AsyncIterable<string> {
    let text = '';
    let stopSequence: string | null = null;
    try {
      const stream = this.#client.messages.stream({
        model: this.#options.model,
        max_tokens: this.#options.maxTokens ?? 4096,
        stop_sequences: [...request.stopSequences],
        system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }],
        messages: request.messages.map(toAnthropicMessage),
      });
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          text += event.delta.text;
          yield event.delta.text;
        }
        if (event.type === 'message_delta') stopSequence = event.delta.stop_sequence ?? null;
      }
    } catch (error) {
      throw explainModelError(
        error,
        `${this.#options.model} at ${this.#client.baseURL}`,
        'ANTHROPIC_API_KEY',
      );
    }
    if (stopSequence === '</execute>') {
      const closer = restoreStoppedCloser(text);
      if (closer !== '') yield closer;
    }
  }
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
