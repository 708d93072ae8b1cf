import type { ModelMessage } from '@agentstep/protocol';
import type { ModelUsage } from './model-usage.js';

/** One model step's request: everything the model sees. */
export interface ModelRequest {
  /** The session the request serves, as the log stores it. @default unknown */
  session?: string;
  system: string;
  messages: readonly ModelMessage[];
  /** This step's index in the session, from 0. */
  step: number;
  /** This step's index in its turn, from 0: a turn's first step is 0 whatever came before. */
  turnStep: number;
  /** Markers after which the step's output is over (A7). */
  stopSequences: readonly string[];
  /** The most tokens the answer may take, over the provider's own setting. @default the adapter's */
  maxOutputTokens?: number;
  /**
   * What the request is for: a model step of the loop, or the summary a compaction asks for
   * (decision 0035), which a script answers without playing a step. @default 'step'
   */
  purpose?: 'step' | 'compaction';
}

/**
 * Reasoning a provider streams apart from its answer (OpenAI-compatible `reasoning_content` /
 * `reasoning`, Anthropic `thinking`, Bedrock `reasoningContent`). It is never part of the step's
 * text sent back to the provider; the step stores it as a `think` event.
 */
export interface ModelReasoning {
  reasoning: string;
}

/**
 * What a model streams: text chunks, native reasoning, and the usage of each request as the
 * provider reports it.
 */
export type ModelPart = string | ModelReasoning | ModelUsage;

/** A language model that streams one step's output as text chunks, with its token usage. */
export interface Model {
  /** How prices and metrics name it: `openai:gpt-4o`, `bedrock:<modelId>`, `scripted`. */
  readonly id: string;
  /**
   * Whether a step whose stream reported no usage spent an unknown number of tokens (a provider's
   * step), rather than none (a script's). @default false
   */
  readonly usageMayBeUnknown?: boolean;
  /**
   * Input tokens one request may hold, when the provider knows it better than `CONTEXT_WINDOWS`
   * does (a user's provider may say so). @default - `contextWindowOf(id)`
   */
  readonly contextWindow?: number;
  stream(request: ModelRequest): AsyncIterable<ModelPart>;
}
