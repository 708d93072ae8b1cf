import type { TurnInput } from '@agentstep/protocol';
import type { SFNClient } from '@aws-sdk/client-sfn';
import * as z from 'zod';
import type { ExecutionStarter } from '../session/execution-starter.js';
import type { RunningTurn } from '../tenants/cancel-suspended-turns.js';

/** How many executions `runningTurns` describes at once. */
const DESCRIBED_AT_ONCE = 10;

/** What a running execution's input says of its turn (a first execution's or a continuation's). */
const runningTurnSchema = z.object({ session: z.string().min(1), turn: z.string().min(1) });

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
   * Every turn running now, by its stored session: each running execution of the state machine,
   * whichever alias or version started it, read back for its input (DescribeExecution). For the
   * kill switch (decision 0041), which cancels a suspended tenant's turns.
   */
  async runningTurns(): Promise<RunningTurn[]> {
    const { sdk, client } = await this.#sdk();
    const running = await this.#running();
    const turns: RunningTurn[] = [];
    // A few at a time: DescribeExecution is throttled per account.
    for (let first = 0; first < running.length; first += DESCRIBED_AT_ONCE) {
      const described = await Promise.all(
        running
          .slice(first, first + DESCRIBED_AT_ONCE)
          .map(({ executionArn }) => client.send(new sdk.DescribeExecutionCommand({ executionArn }))),
      );
      for (const { input } of described) {
        const parsed = runningTurnSchema.safeParse(JSON.parse(input ?? 'null'));
        if (parsed.success) turns.push(parsed.data);
      }
    }
    return turns;
  }

  /** The running executions of `turn`: the first, named after it, or a continuation of it. */
  async #runningExecutionsOf(turn: string): Promise<string[]> {
    return (await this.#running()).flatMap(({ name, executionArn }) =>
      name === turn || name.startsWith(`${turn}-`) ? [executionArn] : [],
    );
  }

  /** Every running execution of the state machine (listed by its unqualified ARN), page by page. */
  async #running(): Promise<Array<{ name: string; executionArn: string }>> {
    const { sdk, client } = await this.#sdk();
    const found: Array<{ name: string; executionArn: string }> = [];
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
        if (name && executionArn) found.push({ name, executionArn });
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
