import OpenAI from 'openai';
import type { CompletionUsage } from 'openai/resources/completions';
import type { RequestEnd } from './continue-at-stops.js';
import type { ModelPart, ModelRequest } from './model.js';
import { explainModelError, type ModelErrorContext, truncatedStreamError } from './model-errors.js';
import type { ModelUsage } from './model-usage.js';
import { ProviderModel } from './provider-model.js';

/** Options of {@link OpenAIModel}. */
export interface OpenAIModelOptions {
  model: string;
  /** Any OpenAI-compatible server: OpenAI, Ollama, vLLM, LM Studio. @default OpenAI's API */
  baseURL?: string | undefined;
  /** @default the SDK's OPENAI_API_KEY */
  apiKey?: string | undefined;
  /** @default a client from the options above, with 2 retries and a 10-minute time-out */
  client?: OpenAI;
  /** The most tokens an answer may take, unless a request says otherwise. @default the server's */
  maxTokens?: number;
}

/**
 * A model behind the Chat Completions API, streamed (`stream: true`, usage included). Stop
 * sequences are handled as A7 says; a continuation sends the output so far as a trailing assistant
 * message, which servers that continue it (Ollama, vLLM, llama.cpp) extend. Throttling and 5xx are
 * retried by the SDK with backoff that honours `retry-after`; what retrying cannot fix is a named
 * error that says what to fix.
 */
export class OpenAIModel extends ProviderModel {
  readonly #client: OpenAI;
  readonly #options: OpenAIModelOptions;
  /** Set once the model refused the `stop` parameter. */
  #stopUnsupported = false;

  constructor(options: OpenAIModelOptions) {
    super(`openai:${options.model}`);
    this.#options = options;
    // The SDK reads its defaults (key and URL variables) where these are undefined.
    this.#client = options.client ?? new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey });
  }

  protected async *request(
    request: ModelRequest,
    prefill: string,
    stops: readonly string[],
  ): AsyncGenerator<ModelPart, RequestEnd> {
    const stream = await this.#create(request, prefill, stops);
    let finish: string | null = null;
    try {
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const reasoning = reasoningOf(choice?.delta);
        if (reasoning) yield { reasoning };
        const delta = choice?.delta?.content;
        if (delta) yield delta;
        finish = choice?.finish_reason ?? finish;
        if (chunk.usage) yield usageOf(chunk.usage);
      }
    } catch (error) {
      // An error chunk (`{"error": …}`) or a cut connection mid-stream: named like any other failure.
      throw this.#explain(error);
    }
    // The SDK hides `[DONE]`; a stream cut before the finish reason is caught here.
    if (finish === null) throw truncatedStreamError(this.#context(), 'finish reason');
    // OpenAI says `stop` for a stop sequence and for the model's own end alike.
    return { stopped: finish === 'stop' };
  }

  /**
   * Starts a streamed completion. A model that refuses stop sequences (OpenAI's reasoning models
   * reject `stop`) is asked again without them, now and for every later request; past the end of
   * its steps it is read only for its usage, as any provider that ignores stop sequences is.
   */
  async #create(request: ModelRequest, prefill: string, stops: readonly string[]) {
    try {
      return await this.#send(request, prefill, this.#stopUnsupported ? [] : stops);
    } catch (error) {
      if (this.#stopUnsupported || stops.length === 0 || !refusedStop(error)) throw this.#explain(error);
      this.#stopUnsupported = true;
      return this.#send(request, prefill, []).catch((again: unknown) => {
        throw this.#explain(again);
      });
    }
  }

  #explain(error: unknown): Error {
    return explainModelError(error, this.#context());
  }

  #context(): ModelErrorContext {
    const url = this.#client.baseURL;
    return { where: `${this.#options.model} at ${url}`, url, credentials: 'OPENAI_API_KEY' };
  }

  #send(request: ModelRequest, prefill: string, stops: readonly string[]) {
    // `max_tokens`, which OpenAI-compatible servers read; not all of them read `max_completion_tokens`.
    const maxTokens = request.maxOutputTokens ?? this.#options.maxTokens;
    return this.#client.chat.completions.create({
      model: this.#options.model,
      stream: true,
      stream_options: { include_usage: true },
      ...(stops.length > 0 ? { stop: [...stops] } : {}),
      messages: [
        { role: 'system', content: request.system },
        ...request.messages,
        ...(prefill ? [{ role: 'assistant' as const, content: prefill }] : []),
      ],
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
    });
  }
}

/** Whether the server refused the request for its `stop` parameter. */
function refusedStop(error: unknown): boolean {
  return error instanceof OpenAI.APIError && error.status === 400 && /\bstop\b/.test(error.message);
}

/**
 * A delta's native reasoning, which OpenAI-compatible services add beside `content`:
 * `reasoning_content` (DeepSeek, vLLM, Qwen) or `reasoning` (OpenRouter, Groq).
 */
function reasoningOf(delta: object | undefined): string | undefined {
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown } | undefined;
  const reasoning = fields?.reasoning_content ?? fields?.reasoning;
  return typeof reasoning === 'string' ? reasoning : undefined;
}

/** OpenAI's prompt tokens already include the cached ones; it reports no cache writes. */
function usageOf(usage: CompletionUsage): ModelUsage {
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
  };
}
