import type { TurnInput } from '@agentstep/protocol';
import {
  ExecutionStatus,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
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
 * name and input. A turn that continues in fresh executions names them `<turn>-<steps so far>`.
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

  async stop(turn: { session: string; turn: string }): Promise<void> {
    for (const executionArn of await this.#runningExecutionsOf(turn.turn)) {
      await this.#client.send(
        new StopExecutionCommand({ executionArn, error: 'Cancelled', cause: 'The turn was cancelled.' }),
      );
    }
  }

  /** The running executions of `turn`: the first, named after it, or a continuation of it. */
  async #runningExecutionsOf(turn: string): Promise<string[]> {
    const found: string[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.#client.send(
        new ListExecutionsCommand({
          stateMachineArn: this.#stateMachineArn,
          statusFilter: ExecutionStatus.RUNNING,
          ...(nextToken ? { nextToken } : {}),
        }),
      );
      for (const { name, executionArn } of page.executions ?? [])
        if (executionArn && (name === turn || name?.startsWith(`${turn}-`))) found.push(executionArn);
      nextToken = page.nextToken;
    } while (nextToken);
    return found;
  }
}
