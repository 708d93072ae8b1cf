import type { TurnInput } from '@agentstep/protocol';

/** Starts a submitted turn's execution: Step Functions when deployed, the local engine on a laptop. */
export interface ExecutionStarter {
  /** Starts the loop for the turn and returns the execution's id; starting the same turn again is safe. */
  start(input: TurnInput): Promise<string>;
  /**
   * Stops the turn's execution (the current one, if the turn continued in fresh ones), as
   * StopExecution does; nothing when it is not running. The turn is closed by whoever sees it end.
   */
  stop(turn: { session: string; turn: string }): Promise<void>;
}
