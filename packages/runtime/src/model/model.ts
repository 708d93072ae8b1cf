import type { ModelMessage } from '@agentstep/protocol';

/** One model step's request: everything the model sees. */
export interface ModelRequest {
  system: string;
  messages: readonly ModelMessage[];
  /** This step's index in the session, from 0. */
  step: number;
  /** Markers after which the step's output is over (A7). */
  stopSequences: readonly string[];
}

/** A language model that streams one step's output as text chunks. */
export interface Model {
  stream(request: ModelRequest): AsyncIterable<string>;
}
