/** One piece of a model step's output, as the model streamed it. */
export interface StreamedChunk {
  session: string;
  /** The session's model step index (from 0), as `ModelRequest.step` numbers it. */
  step: number;
  text: string;
}

/**
 * Where a model step publishes its output while the model streams it, for clients that follow
 * the session live; what is logged stays the source of truth.
 */
export interface StepStream {
  /** Publishes one chunk; must not throw or block the step. */
  write(chunk: StreamedChunk): void;
}
