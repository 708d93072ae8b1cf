import type { ModelMessage } from '@agentstep/protocol';
import type { ModelUsage } from './model-usage.js';

/** One model step's request: everything the model sees. */
export interface ModelRequest {
  system: string;
  messages: readonly ModelMessage[];
  /** This step's index in the session, from 0. */
  step: number;
  /** This step's index in its turn, from 0: a turn's first step is 0 whatever came before. */
  turnStep: number;
  /** Markers after which the step's output is over (A7). */
  stopSequences: readonly string[];
}

/** What a model streams: text chunks, and the usage of each request as the provider reports it. */
export type ModelPart = string | ModelUsage;

/** A language model that streams one step's output as text chunks, with its token usage. */
export interface Model {
  /** How prices and metrics name it: `openai:gpt-4o`, `bedrock:<modelId>`, `scripted`. */
  readonly id: string;
  stream(request: ModelRequest): AsyncIterable<ModelPart>;
}
