import type { ModelMessage } from '@agentstep/protocol';
import {
  BedrockRuntimeClient,
  type ContentBlock,
  ConverseStreamCommand,
  type Message,
  type MessageStopEvent,
  type SystemContentBlock,
  type TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import type { RequestEnd } from './continue-at-stops.js';
import type { ModelPart, ModelRequest } from './model.js';
import { explainModelError, type ModelErrorContext, truncatedStreamError } from './model-errors.js';
import { type ModelUsage, usageWithCacheApart } from './model-usage.js';
import { ProviderModel } from './provider-model.js';

/** Options of {@link BedrockModel}. */
export interface BedrockModelOptions {
  /** A Bedrock model or inference profile id. */
  modelId: string;
  /** @default a client with the SDK's standard retry strategy, 10 s to connect, 120 s of silence at most */
  client?: BedrockRuntimeClient;
  /**
   * Where that default client sends its requests (`--base-url`: a gateway, a proxy, a local
   * stand-in). @default Bedrock's endpoint for the region, or `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`
   */
  baseURL?: string | undefined;
  /** The most tokens an answer may take, unless a request says otherwise. @default 4096 */
  maxTokens?: number;
  /**
   * Whether to send cache points. Bedrock refuses them for models without prompt caching.
   * @default true for Anthropic Claude and Amazon Nova models, which have it
   */
  promptCaching?: boolean;
}

/** Bedrock models with prompt caching; others reject a request that carries cache points. */
const CACHING_MODELS = /anthropic\.claude|amazon\.nova/;

const CACHE_POINT = { cachePoint: { type: 'default' as const } };
/** Milliseconds to connect, and that a stream may stay silent. */
const STREAM_TIMEOUTS = { connectionTimeout: 10_000, requestTimeout: 120_000 };

/**
 * A model on Amazon Bedrock through ConverseStream: the system prompt in the system field, stop
 * sequences in the inference config, and, for models with prompt caching, a `cachePoint` after the
 * stable prefix (the system prompt, and the history up to the newest message) so later steps read
 * it from the prompt cache. Stop
 * sequences are handled as A7 says; a continuation prefills the assistant's message.
 */
export class BedrockModel extends ProviderModel {
  readonly #client: BedrockRuntimeClient;
  readonly #options: BedrockModelOptions;
  readonly #caching: boolean;

  constructor(options: BedrockModelOptions) {
    super(`bedrock:${options.modelId}`);
    this.#options = options;
    this.#caching = options.promptCaching ?? CACHING_MODELS.test(options.modelId);
    // A connection that never opens or a stream that goes quiet fails instead of hanging.
    this.#client =
      options.client ??
      new BedrockRuntimeClient({
        requestHandler: STREAM_TIMEOUTS,
        ...(options.baseURL === undefined ? {} : { endpoint: options.baseURL }),
      });
  }

  protected async *request(
    request: ModelRequest,
    prefill: string,
    stops: readonly string[],
  ): AsyncGenerator<ModelPart, RequestEnd> {
    let end: RequestEnd | undefined;
    let metadata = false;
    try {
      const { stream } = await this.#client.send(
        new ConverseStreamCommand({
          modelId: this.#options.modelId,
          system: [{ text: request.system }, ...(this.#caching ? [CACHE_POINT] : [])] as SystemContentBlock[],
          messages: [
            ...request.messages.map((message, index) =>
              toBedrockMessage(message, this.#caching && index === request.messages.length - 1),
            ),
            ...(prefill ? [{ role: 'assistant' as const, content: [{ text: prefill }] }] : []),
          ],
          inferenceConfig: {
            maxTokens: request.maxOutputTokens ?? this.#options.maxTokens ?? 4096,
            ...(stops.length > 0 ? { stopSequences: [...stops] } : {}),
          },
          // Models that report which stop sequence fired (Claude) say so here; others ignore it.
          additionalModelResponseFieldPaths: ['/stop_sequence'],
        }),
      );
      for await (const event of stream ?? []) {
        const reasoning = event.contentBlockDelta?.delta?.reasoningContent?.text;
        if (reasoning) yield { reasoning };
        const delta = event.contentBlockDelta?.delta?.text;
        if (delta) yield delta;
        if (event.messageStop) end = requestEnd(event.messageStop);
        if (event.metadata) metadata = true;
        if (event.metadata?.usage) yield usageOf(event.metadata.usage);
      }
    } catch (error) {
      // Before the stream or inside it (`modelStreamErrorException`, `throttlingException`, …).
      throw explainModelError(error, this.#context());
    }
    // A stream cut mid-way ends without them: its answer is truncated and its usage unknown.
    if (end === undefined || !metadata)
      throw truncatedStreamError(this.#context(), '`messageStop` and `metadata` events');
    return end;
  }

  #context(): ModelErrorContext {
    return {
      where: `Bedrock model ${this.#options.modelId}`,
      url: this.#options.baseURL,
      credentials: 'AWS credentials (a role with bedrock:InvokeModelWithResponseStream)',
    };
  }
}

/** Whether a stop sequence ended the message, and which, where the model reports it. */
function requestEnd(stop: MessageStopEvent): RequestEnd {
  const fields = stop.additionalModelResponseFields as { stop_sequence?: unknown } | undefined;
  const sequence = typeof fields?.stop_sequence === 'string' ? fields.stop_sequence : undefined;
  return { stopped: stop.stopReason === 'stop_sequence', sequence };
}

/** Bedrock's token usage, which counts cache reads and writes apart from `inputTokens`. */
function usageOf(usage: TokenUsage): ModelUsage {
  return usageWithCacheApart({
    uncachedInput: usage.inputTokens,
    output: usage.outputTokens,
    cacheRead: usage.cacheReadInputTokens,
    cacheWrite: usage.cacheWriteInputTokens,
  });
}

/** A message as a text block, followed by the cache point that closes the prefix when it is the newest. */
function toBedrockMessage(message: ModelMessage, cachePoint: boolean): Message {
  const content: ContentBlock[] = [{ text: message.content }];
  if (cachePoint) content.push(CACHE_POINT as ContentBlock);
  return { role: message.role, content };
}
