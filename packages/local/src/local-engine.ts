import './promise-with-resolvers.js';
import { randomUUID } from 'node:crypto';
import type { TurnInput, TurnOutput } from '@agentstep/protocol';
import type { StepHandler } from '@agentstep/runtime/lambda';
import { StateMachine } from 'aws-local-stepfunctions';
import { type ChaosOptions, seededRandom, withChaos } from './chaos.js';
import { lambdaContext } from './lambda-context.js';
import { type LocalDeps, localHandlers } from './local-handlers.js';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './resolve-tokens.js';
import { countState, type EngineEvent, emptyStats, type RunStats } from './run-stats.js';
import type { SynthesizedAgent } from './synthesize-agent.js';
import { functionNameOf, type TaskKind, taskStates } from './task-states.js';

/** Options of {@link LocalEngine}. */
export interface LocalEngineOptions {
  /** The synthesized loop (`synthesizeAgent()`), built once and run many times. */
  agent: SynthesizedAgent;
  deps: Omit<LocalDeps, 'toolsFunction'>;
  chaos?: ChaosOptions;
  /** Sees every event of every execution, for live views. */
  onEvent?: (event: EngineEvent) => void;
}

/** One turn, run to its end across however many executions it took. */
export interface TurnRun {
  output: TurnOutput;
  stats: RunStats;
}

const STATE_MACHINE_ARN = `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:AgentStepLocal`;

/**
 * Runs the synthesized state machine on aws-local-stepfunctions, routing every Lambda task to the
 * handler module that Lambda runs. ContinueAsNew starts a fresh local execution of the same turn.
 */
export class LocalEngine {
  readonly #machine: StateMachine;
  readonly #tasks: Map<string, TaskKind>;
  readonly #handlers: Map<string, StepHandler<unknown>>;
  readonly #options: LocalEngineOptions;
  readonly #chance: () => boolean;

  constructor(options: LocalEngineOptions) {
    const { definition, functions } = options.agent;
    const toolsFunction = [...functions].find(([, step]) => step === 'invoke-tool')?.[0];
    if (toolsFunction === undefined) throw new Error('The synthesized agent has no invoke-tool function.');
    const byStep = localHandlers({ ...options.deps, toolsFunction });
    this.#handlers = new Map([...functions].map(([name, step]) => [name, byStep[step]]));
    this.#tasks = taskStates(definition, functions);
    this.#machine = new StateMachine(definition, { validationOptions: { checkArn: false } });
    this.#options = options;
    const random = seededRandom(options.chaos?.seed ?? 0);
    this.#chance = () => options.chaos !== undefined && random() < options.chaos.probability;
  }

  /** Runs one turn whose user message is already in the log (see `submitTurn`). */
  async runTurn(input: TurnInput): Promise<TurnRun> {
    const started = Date.now();
    const stats = emptyStats();
    const executions = new Map<string, Promise<TurnOutput>>();
    const start = (executionInput: unknown): string => {
      const arn = `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:AgentStepLocal:${randomUUID()}`;
      executions.set(arn, this.#execute(arn, executionInput, stats, start));
      return arn;
    };
    let output = await (executions.get(start(input)) as Promise<TurnOutput>);
    while (output.status === 'continued') {
      const next = executions.get(output.message ?? '');
      if (next === undefined) throw new Error(`ContinueAsNew named an unknown execution: ${output.message}`);
      output = await next;
    }
    stats.wallMs = Date.now() - started;
    return { output, stats };
  }

  async #execute(
    arn: string,
    input: unknown,
    stats: RunStats,
    start: (input: unknown) => string,
  ): Promise<TurnOutput> {
    stats.executions++;
    const execution = this.#machine.run(input as never, {
      overrides: {
        taskResourceLocalHandlers: this.#overrides(start) as never,
        retryIntervalOverrides: Object.fromEntries([...this.#tasks.keys()].map((name) => [name, 0])),
      },
      context: {
        Execution: {
          Id: arn,
          Name: arn.split(':').at(-1),
          Input: input,
          StartTime: new Date().toISOString(),
        },
        StateMachine: { Id: STATE_MACHINE_ARN, Name: 'AgentStepLocal' },
      } as never,
    });
    const watched = (async () => {
      for await (const event of execution.eventLogs) {
        countState(stats, event as EngineEvent);
        this.#options.onEvent?.(event as EngineEvent);
      }
    })();
    const [output] = await Promise.all([execution.result, watched]);
    return output as TurnOutput;
  }

  #overrides(start: (input: unknown) => string): Record<string, (input: unknown) => Promise<unknown>> {
    return Object.fromEntries(
      [...this.#tasks].map(([name, task]) => {
        if (task.kind === 'lambda') return [name, (input: unknown) => this.#invoke(task.functionName, input)];
        if (task.kind === 'start-execution') {
          return [
            name,
            async (input: unknown) => ({ ExecutionArn: start((input as { Input: unknown }).Input) }),
          ];
        }
        return [
          name,
          async (input: unknown) => {
            const { FunctionName, Payload } = input as { FunctionName: string; Payload: unknown };
            return { StatusCode: 200, Payload: await this.#invoke(functionNameOf(FunctionName), Payload) };
          },
        ];
      }),
    );
  }

  #invoke(functionName: string, payload: unknown): Promise<unknown> {
    const handler = this.#handlers.get(functionName);
    if (handler === undefined) throw new Error(`No local function is named ${functionName}.`);
    return withChaos((event: unknown) => handler(event, lambdaContext(functionName)), this.#chance)(payload);
  }
}
