import OpenAI from 'openai';
import type { Model, ModelRequest } from './model.js';
import { explainModelError } from './model-errors.js';
import { restoreStoppedCloser } from './restore-stopped-closer.js';

/** Options of {@link OpenAIModel}. */
export interface OpenAIModelOptions {
  model: string;
  /** Any OpenAI-compatible server: OpenAI, Ollama, vLLM, LM Studio. @default OpenAI's API */
  baseURL?: string | undefined;
  /** @default the SDK's OPENAI_API_KEY */
  apiKey?: string | undefined;
  /** @default a client from the options above, with 2 retries and a 10-minute time-out */
  client?: OpenAI;
  maxTokens?: number;
}

/**
 * A model behind the Chat Completions API, streamed (`stream: true`, usage included). Stop
 * sequences end the step early; a swallowed `</execute>` is restored (A7). Throttling and 5xx are
 * retried by the SDK with backoff that honours `retry-after`; what retrying cannot fix is a named
 * error that says what to fix.
 */
export class OpenAIModel implements Model {
  readonly #client: OpenAI;
  readonly #options: OpenAIModelOptions;

  constructor(options: OpenAIModelOptions) {
    this.#options = options;
    // The SDK reads its defaults (key and URL variables) where these are undefined.
    this.#client = options.client ?? new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey });
  }

  async *stream(request: ModelRequest): AsyncIterable<string> {
    const stream = await this.#create(request);
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      const delta = choice?.delta?.content;
      if (delta) {
        text += delta;
        yield delta;
      }
      finish = choice?.finish_reason ?? finish;
    }
    if (finish === 'stop') {
      const closer = restoreStoppedCloser(text);
      if (closer !== '') yield closer;
    }
  }

  async #create(request: ModelRequest) {
    try {
      return await this.#client.chat.completions.create({
        model: this.#options.model,
        stream: true,
        stream_options: { include_usage: true },
        stop: [...request.stopSequences],
        messages: [{ role: 'system', content: request.system }, ...request.messages],
        ...(this.#options.maxTokens ? { max_tokens: this.#options.maxTokens } : {}),
      });
    } catch (error) {
      throw explainModelError(error, `${this.#options.model} at ${this.#client.baseURL}`, 'OPENAI_API_KEY');
    }
  }
}
