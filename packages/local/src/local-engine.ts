import './promise-with-resolvers.js';
import { randomUUID } from 'node:crypto';
import type { TurnInput, TurnResult } from '@agentstep/protocol';
import type { StepHandler } from '@agentstep/runtime/lambda';
import { ExecutionError, type StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { type ChaosOptions, seededRandom, withChaos } from './chaos.js';
import { historyEvents, MAX_HISTORY_EVENTS } from './history-events.js';
import { lambdaContext } from './lambda-context.js';
import { LocalEventBus } from './local-event-bus.js';
import { type LocalDeps, localHandlers } from './local-handlers.js';
import { LOCAL_ACCOUNT, LOCAL_REGION, localStateMachineArn } from './resolve-tokens.js';
import { countState, type EngineEvent, emptyStats, type RunStats, statePayloadBytes } from './run-stats.js';
import {
  childFailedError,
  executionInput,
  type NestedExecution,
  type StartExecutionParameters,
  startedResult,
  succeededResult,
} from './start-execution-task.js';
import type { SynthesizedAgent } from './synthesize-agent.js';
import { allStates, functionNameOf, type TaskKind, taskStates } from './task-states.js';
import { ExecutionTaskTokens } from './task-tokens/execution-task-tokens.js';
import { LocalTaskTokens } from './task-tokens/local-task-tokens.js';
import { TASK_TOKEN_PLACEHOLDER } from './task-tokens/task-token-placeholder.js';
import { waitForTaskTokenTask } from './task-tokens/wait-for-task-token-task.js';
import { validatedStateMachine } from './validated-state-machine.js';

/** Options of {@link LocalEngine}. */
export interface LocalEngineOptions {
  /** The synthesized loop (`synthesizeAgent()`), built once and run many times. */
  agent: SynthesizedAgent;
  deps: Omit<LocalDeps, 'toolsFunction' | 'events'>;
  /**
   * Other state machines the app synthesizes, by name, hosted next to the loop (hosted as
   * {@link AGENT_STATE_MACHINE}); a task starts one by its name or its local ARN. @default none
   */
  stateMachines?: Readonly<Record<string, StateMachineDefinition>>;
  /** Lambda functions those state machines call besides the loop's, by function name. @default none */
  functions?: Readonly<Record<string, (event: unknown) => Promise<unknown>>>;
  chaos?: ChaosOptions;
  /**
   * Completes the tokens of `.waitForTaskToken` tasks; give it a shared completion store to let
   * other processes complete them. @default a new `LocalTaskTokens` without a store
   */
  taskTokens?: LocalTaskTokens;
  /** Where `events:putEvents` tasks publish. @default a new one */
  eventBus?: LocalEventBus;
  /** Sees every event of every execution, for live views. */
  onEvent?: (event: EngineEvent) => void;
  /**
   * Sees every call a task state makes, before it is made: the hosted machine that makes it (its
   * role makes it when deployed), the task's kind, and the parameters it sends. For tests that
   * check those calls against the machines' roles.
   */
  onTaskCall?: (call: TaskCall) => void;
}

/** One call a task state makes (see {@link LocalEngineOptions.onTaskCall}). */
export interface TaskCall {
  /** The hosted machine's name: {@link AGENT_STATE_MACHINE}, {@link WORKFLOW_STATE_MACHINE}, or another's. */
  machine: string;
  task: TaskKind;
  input: unknown;
}

/** One turn, run to its end across however many executions it took. */
export interface TurnRun {
  output: TurnResult;
  stats: RunStats;
}

/** One execution run to its end, with the executions it started. */
export interface ExecutionRun {
  executionArn: string;
  output: unknown;
  stats: RunStats;
}

/** Step Functions' limit on a state's input or output: 256 KiB of UTF-8 JSON. */
const MAX_PAYLOAD_BYTES = 256 * 1024;

/**
 * The failure Step Functions ends an execution with when it passes one of its limits, which no
 * `Catch` handles: a state's payload over 256 KiB (`States.DataLimitExceeded`), or a history of
 * more than 25,000 events (`States.Runtime`).
 */
function limitExceeded(event: EngineEvent, bytes: number, history: number): ExecutionError | undefined {
  const [name, message] =
    bytes > MAX_PAYLOAD_BYTES
      ? [
          'States.DataLimitExceeded',
          `State ${event.state?.name} ${event.type === 'StateEntered' ? 'was entered with' : 'exited with'} ${bytes} bytes of JSON, over Step Functions' limit of ${MAX_PAYLOAD_BYTES} bytes.`,
        ]
      : history > MAX_HISTORY_EVENTS
        ? [
            'States.Runtime',
            `The execution's history passed ${MAX_HISTORY_EVENTS} events, Step Functions' limit for one execution.`,
          ]
        : [];
  if (name === undefined) return undefined;
  const cause = new Error(message);
  cause.name = name;
  return new ExecutionError(cause as never);
}

function newRun(): Run {
  return { stats: emptyStats(), executions: new Map(), aborts: new Set() };
}

function turnKey({ session, turn }: { session: string; turn: string }): string {
  return `${session}\n${turn}`;
}

/** The name the agent loop is hosted under. */
export const AGENT_STATE_MACHINE = 'AgentStepLocal';

/** The name the workflow state machine is hosted under. */
export const WORKFLOW_STATE_MACHINE = 'AgentStepWorkflowsLocal';

/** A state machine the engine runs, and what each of its Task states does. */
interface HostedMachine {
  arn: string;
  name: string;
  machine: StateMachine;
  states: Map<string, Record<string, unknown>>;
  tasks: Map<string, TaskKind>;
}

/** The executions one run started (ContinueAsNew and nested ones), and what they all cost. */
interface Run {
  stats: RunStats;
  executions: Map<string, Promise<unknown>>;
  /** Aborts each execution of the run that is still going. */
  aborts: Set<() => void>;
}

/**
 * Runs the synthesized loop, and any other state machine the app synthesizes, on
 * aws-local-stepfunctions: every Lambda task calls the handler module that Lambda runs, and
 * `states:startExecution` tasks (plain, `.sync` and `.sync:2`) start local executions of the hosted
 * machines. `lambda:invoke.waitForTaskToken` tasks invoke their function with a fresh local token,
 * then wait for {@link LocalEngine.taskTokens} to complete it. ContinueAsNew starts a fresh local
 * execution of the same turn.
 */
export class LocalEngine {
  /** Ends the tasks that wait on task tokens: SendTaskSuccess and SendTaskFailure, locally. */
  readonly taskTokens: LocalTaskTokens;
  /** Where the machines' `events:putEvents` tasks publish: every turn's end, for one. */
  readonly eventBus: LocalEventBus;
  readonly #machines = new Map<string, HostedMachine>();
  readonly #handlers: Map<string, StepHandler<unknown>>;
  readonly #options: LocalEngineOptions;
  readonly #chance: () => boolean;
  /** The runs of the turns going on now, by session and turn. */
  readonly #turns = new Map<string, Run>();
  /** The runs `execute` started that have not ended. */
  readonly #executing = new Set<Run>();

  constructor(options: LocalEngineOptions) {
    const { definition, functions } = options.agent;
    const toolsFunction = [...functions].find(([, step]) => step === 'invoke-tool')?.[0];
    if (toolsFunction === undefined) throw new Error('The synthesized agent has no invoke-tool function.');
    this.eventBus = options.eventBus ?? new LocalEventBus();
    const byStep = localHandlers({ ...options.deps, toolsFunction, events: this.eventBus });
    this.#handlers = new Map([
      ...[...functions].map(([name, step]): [string, StepHandler<unknown>] => [name, byStep[step]]),
      ...Object.entries(options.functions ?? {}),
    ]);
    this.#options = options;
    this.taskTokens = options.taskTokens ?? new LocalTaskTokens();
    this.#host(AGENT_STATE_MACHINE, definition);
    // Goals start the loop by its logical id, as a `Ref` to it resolves.
    this.#host(options.agent.workflow.agentName, definition);
    this.#host(WORKFLOW_STATE_MACHINE, options.agent.workflow.definition);
    for (const [name, other] of Object.entries(options.stateMachines ?? {})) this.#host(name, other);
    const random = seededRandom(options.chaos?.seed ?? 0);
    this.#chance = () => options.chaos !== undefined && random() < options.chaos.probability;
  }

  /** Runs one turn whose user message is already in the log (see `submitTurn`). */
  async runTurn(input: TurnInput): Promise<TurnRun> {
    const started = Date.now();
    const run = newRun();
    const key = turnKey(input);
    this.#turns.set(key, run);
    try {
      // The first execution waits for any it continues in: its output is the turn's result.
      const output = (await this.#started(run, this.#start(AGENT_STATE_MACHINE, input, run))) as TurnResult;
      run.stats.wallMs = Date.now() - started;
      return { output, stats: run.stats };
    } finally {
      this.#turns.delete(key);
    }
  }

  /**
   * Aborts the executions of a turn that `runTurn` is running, as StopExecution does: `runTurn`
   * then rejects. False when the turn is not running here.
   */
  stopTurn(turn: { session: string; turn: string }): boolean {
    const run = this.#turns.get(turnKey(turn));
    for (const abort of run?.aborts ?? []) abort();
    return run !== undefined;
  }

  /**
   * Runs an execution of a hosted state machine (by name or local ARN) to its end. A failed
   * execution rejects with the engine's `ExecutionError`, its `cause` the error that ended it.
   */
  async execute(stateMachine: string, input: unknown): Promise<ExecutionRun> {
    const started = Date.now();
    const run = newRun();
    this.#executing.add(run);
    try {
      const executionArn = this.#start(stateMachine, input, run);
      const output = await this.#started(run, executionArn);
      run.stats.wallMs = Date.now() - started;
      return { executionArn, output, stats: run.stats };
    } finally {
      this.#executing.delete(run);
    }
  }

  /**
   * Aborts every execution `execute` is running (a workflow run waiting at a human gate), as the
   * end of the process that runs them would: each rejects, and what it logged stays, to be resumed.
   */
  stopExecutions(): void {
    for (const run of this.#executing) for (const abort of run.aborts) abort();
  }

  #host(name: string, definition: StateMachineDefinition): void {
    const arn = localStateMachineArn(name);
    this.#machines.set(name, {
      arn,
      name,
      machine: validatedStateMachine(definition),
      states: allStates(definition),
      tasks: taskStates(definition, this.#handlers),
    });
  }

  /**
   * A hosted machine by name or local ARN (a `Ref` to a state machine resolves to its name), an
   * alias's or version's ARN naming the machine itself: locally there are no versions.
   */
  #hosted(nameOrArn: string): HostedMachine {
    const [name = ''] = nameOrArn.replace(/^arn:aws:states:[^:]*:\d*:stateMachine:/, '').split(':');
    const hosted = this.#machines.get(name);
    if (hosted !== undefined) return hosted;
    const error = new Error(
      `The local engine hosts no state machine ${nameOrArn}; it hosts ${[...this.#machines.keys()].join(', ')}.`,
    );
    error.name = 'StepFunctions.StateMachineDoesNotExistException';
    throw error;
  }

  #started(run: Run, executionArn: string): Promise<unknown> {
    const execution = run.executions.get(executionArn);
    if (execution === undefined) throw new Error(`No local execution ${executionArn} was started.`);
    return execution;
  }

  /** Starts an execution; it runs on while its ARN is returned. */
  #start(stateMachine: string, input: unknown, run: Run, name: string = randomUUID()): string {
    const hosted = this.#hosted(stateMachine);
    const executionArn = `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:${hosted.name}:${name}`;
    const execution = this.#execute(hosted, { executionArn, name, input, run });
    execution.catch(() => {}); // Observed by whoever waits for it; never an unhandled rejection.
    run.executions.set(executionArn, execution);
    return executionArn;
  }

  async #execute(
    hosted: HostedMachine,
    execution: { executionArn: string; name: string; input: unknown; run: Run },
  ): Promise<unknown> {
    const { stats } = execution.run;
    stats.executions++;
    const tokens = new ExecutionTaskTokens(this.taskTokens);
    const running = hosted.machine.run(execution.input as never, {
      overrides: {
        taskResourceLocalHandlers: this.#overrides(hosted, execution.run, tokens) as never,
        retryIntervalOverrides: Object.fromEntries([...hosted.tasks.keys()].map((name) => [name, 0])),
      },
      context: {
        Execution: {
          Id: execution.executionArn,
          Name: execution.name,
          Input: execution.input,
          StartTime: new Date().toISOString(),
        },
        StateMachine: { Id: hosted.arn, Name: hosted.name },
        // One context serves the whole execution: each task attempt swaps in its own token.
        Task: { Token: TASK_TOKEN_PLACEHOLDER },
      } as never,
    });
    let overLimit: Error | undefined;
    let history = 0;
    const watched = (async () => {
      for await (const logged of running.eventLogs) {
        const event = logged as EngineEvent;
        const bytes = statePayloadBytes(event);
        countState(stats, event, bytes);
        this.#options.onEvent?.(event);
        history += historyEvents(event, (state) => hosted.states.get(state)?.Type);
        overLimit ??= limitExceeded(event, bytes, history);
        if (overLimit !== undefined) running.abort();
      }
    })();
    execution.run.aborts.add(running.abort);
    const [output] = await Promise.all([running.result, watched])
      .catch((error: unknown) => {
        throw overLimit ?? error;
      })
      .finally(() => {
        execution.run.aborts.delete(running.abort);
        tokens.end();
      });
    if (overLimit !== undefined) throw overLimit;
    return output;
  }

  #overrides(
    hosted: HostedMachine,
    run: Run,
    tokens: ExecutionTaskTokens,
  ): Record<string, (input: unknown) => Promise<unknown>> {
    const observe = this.#options.onTaskCall;
    return Object.fromEntries(
      [...hosted.tasks].map(([name, task]) => {
        const handler = this.#taskHandler(task, run, tokens);
        if (observe === undefined) return [name, handler];
        return [
          name,
          (input: unknown) => {
            observe({ machine: hosted.name, task, input });
            return handler(input);
          },
        ];
      }),
    );
  }

  #taskHandler(task: TaskKind, run: Run, tokens: ExecutionTaskTokens): (input: unknown) => Promise<unknown> {
    if (task.kind === 'lambda') return (input) => this.#invoke(task.functionName, input);
    if (task.kind === 'lambda-wait-for-task-token') {
      return waitForTaskTokenTask(tokens, task.timeoutSeconds, (name, payload) =>
        this.#invoke(name, payload),
      );
    }
    if (task.kind === 'lambda-by-name') {
      return async (input) => {
        const { FunctionName, Payload } = input as { FunctionName: string; Payload: unknown };
        return { StatusCode: 200, Payload: await this.#invoke(functionNameOf(FunctionName), Payload) };
      };
    }
    if (task.kind === 'put-events') return (input) => this.eventBus.putEvents(input as never);
    if (task.kind === 'describe-execution')
      return async (input) => this.#describeExecution(input as { ExecutionArn: string });
    return (input) => this.#startExecutionTask(task.mode, input as StartExecutionParameters, run);
  }

  async #startExecutionTask(
    mode: 'start' | 'sync' | 'sync:2',
    parameters: StartExecutionParameters,
    run: Run,
  ): Promise<unknown> {
    const input = executionInput(parameters);
    const executionArn = this.#start(parameters.StateMachineArn, input, run, parameters.Name);
    const nested: NestedExecution = {
      executionArn,
      stateMachineArn: this.#hosted(parameters.StateMachineArn).arn,
      name: executionArn.split(':').at(-1) ?? '',
      input,
      startDate: Date.now(),
    };
    if (mode === 'start') return startedResult(nested);
    try {
      return succeededResult(mode, nested, await this.#started(run, executionArn));
    } catch (error) {
      throw childFailedError(nested, error instanceof ExecutionError ? error.cause : error);
    }
  }

  /**
   * DescribeExecution of an execution this engine runs, as Step Functions answers it for one
   * started on no version (`StateMachineVersionArn` absent): locally there are none, so ContinueAsNew
   * continues on the same hosted definition.
   */
  #describeExecution({ ExecutionArn }: { ExecutionArn: string }) {
    const [, machine = '', name = ''] = /:execution:([^:]+):([^:]+)$/.exec(ExecutionArn) ?? [];
    return { ExecutionArn, StateMachineArn: this.#hosted(machine).arn, Name: name, Status: 'RUNNING' };
  }

  #invoke(functionName: string, payload: unknown): Promise<unknown> {
    const handler = this.#handlers.get(functionName);
    if (handler === undefined) throw new Error(`No local function is named ${functionName}.`);
    return withChaos((event: unknown) => handler(event, lambdaContext(functionName)), this.#chance)(payload);
  }
}
