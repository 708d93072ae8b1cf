import { AGENT_STATE_MACHINE, type LocalEngine, WORKFLOW_STATE_MACHINE } from '@agentstep/local';
import type { TurnInput, TurnRequest } from '@agentstep/protocol';
import type { Operation } from './aws-stand-in.js';
import { unqualified } from './iam-coverage.js';

type Status = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';

/** One execution a function started through the stand-in. */
interface Started {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  /** A turn of the loop (as the API starts one, or as a trigger does), or a workflow run (`{ run }`). */
  input: TurnInput | TurnRequest | { run: string };
  status: Status;
  /** Its output, once it succeeded. */
  output?: unknown;
  ended: Promise<void>;
}

/**
 * Step Functions' API over a local engine, for the AWS stand-in: the operations the deployed
 * functions send (the API's starts, cancels and approval decisions, the operator's suspensions,
 * StartQueuedTurn's starts, the API's workflow runs, a trigger's turns), each acting on `engine`'s
 * turns and runs as Step Functions would on the executions: a turn's input (or an AWS service's
 * turn request) starts the loop, a run's the workflow state machine.
 */
export class EngineStepFunctions {
  /** The engine the executions run on; set before a function starts one. */
  engine: LocalEngine | undefined;
  readonly #started = new Map<string, Started>();

  /** The stand-in's operations. */
  operations(): Record<string, Operation> {
    return {
      'AWSStepFunctions.StartExecution': (input) => this.#start(input),
      // Newest first, at most maxResults, of the state machine or of the alias or version named.
      'AWSStepFunctions.ListExecutions': ({ stateMachineArn, statusFilter, maxResults }) => ({
        executions: [...this.#started.values()]
          .reverse()
          .filter(({ status }) => statusFilter === undefined || status === statusFilter)
          .filter((started) =>
            [started.stateMachineArn, unqualified(started.stateMachineArn)].includes(String(stateMachineArn)),
          )
          .slice(0, Number(maxResults ?? 100))
          .map(({ executionArn, stateMachineArn, name, status }) => ({
            executionArn,
            stateMachineArn,
            name,
            status,
            startDate: Date.now() / 1000,
          })),
      }),
      'AWSStepFunctions.DescribeExecution': ({ executionArn }) => {
        const started = this.#of(String(executionArn));
        const { stateMachineArn, name, status, input, output } = started;
        return {
          executionArn,
          stateMachineArn,
          name,
          status,
          input: JSON.stringify(input),
          ...(output === undefined ? {} : { output: JSON.stringify(output) }),
          startDate: Date.now() / 1000,
        };
      },
      'AWSStepFunctions.StopExecution': ({ executionArn }) => {
        const started = this.#of(String(executionArn));
        if ('turn' in started.input) this.#engine().stopTurn(started.input);
        started.status = 'ABORTED';
        return { stopDate: Date.now() / 1000 };
      },
      'AWSStepFunctions.SendTaskSuccess': async ({ taskToken, output }) => {
        await this.#engine().taskTokens.sendTaskSuccess(String(taskToken), JSON.parse(String(output)));
        return {};
      },
      'AWSStepFunctions.SendTaskFailure': async ({ taskToken, error, cause }) => {
        await this.#engine().taskTokens.sendTaskFailure(String(taskToken), String(error), String(cause));
        return {};
      },
    };
  }

  /** Waits until every execution started so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.#started.values()].map(({ ended }) => ended));
  }

  #start({ stateMachineArn, name, input }: Record<string, unknown>) {
    const machine = unqualified(String(stateMachineArn));
    const executionArn = `${machine.replace(':stateMachine:', ':execution:')}:${String(name)}`;
    const existing = this.#started.get(executionArn);
    if (existing) return { executionArn, startDate: Date.now() / 1000 };
    const turn = JSON.parse(String(input)) as Started['input'];
    const started: Started = {
      executionArn,
      stateMachineArn: String(stateMachineArn),
      name: String(name),
      input: turn,
      status: 'RUNNING',
      ended: Promise.resolve(),
    };
    started.ended = this.#run(turn).then(
      (output) => {
        if (started.status !== 'RUNNING') return;
        started.status = 'SUCCEEDED';
        started.output = output;
      },
      () => {
        if (started.status === 'RUNNING') started.status = 'FAILED';
      },
    );
    this.#started.set(executionArn, started);
    return { executionArn, startDate: Date.now() / 1000 };
  }

  /** Runs an execution's input on the engine's machine for it; resolves with its output. */
  async #run(input: Started['input']): Promise<unknown> {
    const engine = this.#engine();
    if ('turn' in input) return (await engine.runTurn(input)).output;
    if ('message' in input) return (await engine.execute(AGENT_STATE_MACHINE, input)).output;
    return (await engine.execute(WORKFLOW_STATE_MACHINE, input)).output;
  }

  #of(executionArn: string): Started {
    const started = this.#started.get(executionArn);
    if (started === undefined) throw new Error(`No execution ${executionArn} was started.`);
    return started;
  }

  #engine(): LocalEngine {
    if (this.engine === undefined) throw new Error('No engine runs the stand-in’s executions.');
    return this.engine;
  }
}
