import type { TurnInput } from '@agentstep/protocol';

/** Starts a submitted turn's execution: Step Functions when deployed, the local engine on a laptop. */
export interface ExecutionStarter {
  /** Starts the loop for the turn and returns the execution's id; starting the same turn again is safe. */
  start(input: TurnInput): Promise<string>;
}
