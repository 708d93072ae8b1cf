import type { TurnInput } from '@agentstep/protocol';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { ExecutionStarter } from '../session/execution-starter.js';

/**
 * The Step Functions SDK, imported when a starter first sends: a function that rarely starts or
 * stops executions (the tools function, for sub-agents) does not load it on every cold start.
 */
const sfnSdk = () => import('@aws-sdk/client-sfn');

/** Options of {@link StepFunctionsStarter}. */
export interface StepFunctionsStarterOptions {
  /** The agent's state machine (`AgentStep.stateMachine.stateMachineArn`). */
  stateMachineArn: string;
  /** @default a default `SFNClient`, made on first use */
  client?: SFNClient;
}

/**
 * Starts a turn as a Step Functions execution named after the turn, so starting the same turn
 * twice (a retried request) starts one execution: Step Functions returns the first for the same
 * name and input. A turn that continues in fresh executions names them `<turn>-<steps so far>`.
 */
export class StepFunctionsStarter implements ExecutionStarter {
  #client: SFNClient | undefined;
  readonly #stateMachineArn: string;

  constructor(options: StepFunctionsStarterOptions) {
    this.#client = options.client;
    this.#stateMachineArn = options.stateMachineArn;
  }

  async start(input: TurnInput): Promise<string> {
    const { sdk, client } = await this.#sdk();
    const { executionArn } = await client.send(
      new sdk.StartExecutionCommand({
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
    const { sdk, client } = await this.#sdk();
    for (const executionArn of await this.#runningExecutionsOf(turn.turn)) {
      await client.send(
        new sdk.StopExecutionCommand({ executionArn, error: 'Cancelled', cause: 'The turn was cancelled.' }),
      );
    }
  }

  /**
   * The running executions of `turn`: the first, named after it, or a continuation of it, whichever
   * alias or version started them (listed by the state machine's unqualified ARN).
   */
  async #runningExecutionsOf(turn: string): Promise<string[]> {
    const { sdk, client } = await this.#sdk();
    const found: string[] = [];
    let nextToken: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListExecutionsCommand({
          stateMachineArn: unqualified(this.#stateMachineArn),
          statusFilter: sdk.ExecutionStatus.RUNNING,
          ...(nextToken ? { nextToken } : {}),
        }),
      );
      for (const { name, executionArn } of page.executions ?? [])
        if (executionArn && (name === turn || name?.startsWith(`${turn}-`))) found.push(executionArn);
      nextToken = page.nextToken;
    } while (nextToken);
    return found;
  }

  /** The SDK and the client, the default one made on first use. */
  async #sdk() {
    const sdk = await sfnSdk();
    this.#client ??= new sdk.SFNClient({});
    return { sdk, client: this.#client };
  }
}

/** A state machine's ARN without the alias or version it may name (`…:stateMachine:NAME[:QUALIFIER]`). */
function unqualified(arn: string): string {
  return arn.split(':').slice(0, 7).join(':');
}
