import type { EngineEvent, TurnRun } from '@agentstep/local';

/** How `agentstep run` shows a turn as it runs. */
export interface RunView {
  /** Sees every state machine event, as it happens. */
  onEvent(event: EngineEvent): void;
  /** Sees each text chunk the model streams (token mode), with the step it belongs to. */
  onModelChunk(step: number, chunk: string): void;
  /** Shows the rest of the turn once it ended. */
  finish(run: TurnRun): Promise<void>;
}
