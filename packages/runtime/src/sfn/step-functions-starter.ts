import type { TurnInput } from '@agentstep/protocol';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { ExecutionStarter } from '../session/execution-starter.js';

/** Options of {@link StepFunctionsStarter}. */
export interface StepFunctionsStarterOptions {
  /** The agent's state machine (`AgentStep.stateMachine.stateMachineArn`). */
  stateMachineArn: string;
  /** @default a default `SFNClient` */
  client?: SFNClient;
}

/**
 * Starts a turn as a Step Functions execution named after the turn, so starting the same turn
 * twice (a retried request) starts one execution: Step Functions returns the first for the same
 * name and input.
 */
export class StepFunctionsStarter implements ExecutionStarter {
  readonly #client: SFNClient;
  readonly #stateMachineArn: string;

  constructor(options: StepFunctionsStarterOptions) {
    this.#client = options.client ?? new SFNClient({});
    this.#stateMachineArn = options.stateMachineArn;
  }

  async start(input: TurnInput): Promise<string> {
    const { executionArn } = await this.#client.send(
      new StartExecutionCommand({
        stateMachineArn: this.#stateMachineArn,
        name: input.turn,
        input: JSON.stringify(input),
      }),
    );
    if (executionArn === undefined)
      throw new Error(`Step Functions started turn ${input.turn} without an ARN.`);
    return executionArn;
  }
}
