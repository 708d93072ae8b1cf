import type { ModelMessage } from '@agentstep/protocol';
import {
  BedrockRuntimeClient,
  type ContentBlock,
  ConverseStreamCommand,
  type Message,
  type SystemContentBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type { Model, ModelRequest } from './model.js';
import { explainModelError } from './model-errors.js';
import { restoreStoppedCloser } from './restore-stopped-closer.js';

/** Options of {@link BedrockModel}. */
export interface BedrockModelOptions {
  /** A Bedrock model or inference profile id. */
  modelId: string;
  /** @default a client with the SDK's standard retry strategy */
  client?: BedrockRuntimeClient;
  /** @default 4096 */
  maxTokens?: number;
}

const CACHE_POINT = { cachePoint: { type: 'default' as const } };

/**
 * A model on Amazon Bedrock through ConverseStream: the system prompt in the system field, stop
 * sequences in the inference config, and a `cachePoint` after the stable prefix (the system prompt,
 * and the history up to the newest message) so later steps read it from the prompt cache. A
 * swallowed `</execute>` is restored (A7).
 */
export class BedrockModel implements Model {
  readonly #client: BedrockRuntimeClient;
  readonly #options: BedrockModelOptions;

  constructor(options: BedrockModelOptions) {
    this.#options = options;
    this.#client = options.client ?? new BedrockRuntimeClient({});
  }

  async *stream(request: ModelRequest): AsyncIterable<string> {
    let text = '';
    let stopReason: string | undefined;
    try {
      const { stream } = await this.#client.send(
        new ConverseStreamCommand({
          modelId: this.#options.modelId,
          system: [{ text: request.system }, CACHE_POINT] as SystemContentBlock[],
          messages: request.messages.map(toBedrockMessage),
          inferenceConfig: {
            maxTokens: this.#options.maxTokens ?? 4096,
            stopSequences: [...request.stopSequences],
          },
        }),
      );
      for await (const event of stream ?? []) {
        const delta = event.contentBlockDelta?.delta?.text;
        if (delta) {
          text += delta;
          yield delta;
        }
        stopReason = event.messageStop?.stopReason ?? stopReason;
      }
    } catch (error) {
      throw explainModelError(
        error,
        `Bedrock model ${this.#options.modelId}`,
        'AWS credentials (a role with bedrock:InvokeModelWithResponseStream)',
      );
    }
    if (stopReason === 'stop_sequence') {
      const closer = restoreStoppedCloser(text);
      if (closer !== '') yield closer;
    }
  }
}

/** A message as a text block; the newest one is followed by the cache point that closes the prefix. */
function toBedrockMessage(message: ModelMessage, index: number, messages: readonly ModelMessage[]): Message {
  const content: ContentBlock[] = [{ text: message.content }];
  if (index === messages.length - 1) content.push(CACHE_POINT as ContentBlock);
  return { role: message.role, content };
}
