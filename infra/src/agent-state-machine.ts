import {
  type AdvanceTurnInput,
  type AwaitApprovalInput,
  type CallItem,
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  ERROR_NAMES,
  type InvokeToolInput,
  type LoopState,
  type ModelStepOutput,
  NEXT,
  STATE_NAMES,
  startTurnInputSchema,
  TURN_EVENT_TYPES,
  type TurnResult,
} from '@agentstep/protocol';
import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IFunction, IVersion, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  Choice,
  Condition,
  CustomState,
  DefinitionBody,
  Fail,
  type IChainable,
  JitterType,
  JsonPath,
  LogLevel,
  Map as MapState,
  Pass,
  type RetryProps,
  StateMachine,
  StateMachineType,
  TaskInput,
  type TaskStateBase,
  Timeout,
  Wait,
  WaitTime,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { announceEnd } from './announce-end.js';
import { currentVersion } from './current-version.js';
import { grantInvokeVersions } from './grant-invoke-versions.js';
import { LAMBDA_SERVICE_ERRORS } from './lambda-service-errors.js';
import { LIVE_ALIAS_NAME } from './live-alias.js';
import type { LoopStepName } from './step-lambda.js';
import { syncExecutionPolicy } from './sync-execution-policy.js';
import { waitForTaskToken } from './wait-for-task-token.js';

/** Props of {@link AgentStateMachine}. */
export interface AgentStateMachineProps {
  /**
   * The loop's Lambda functions, by step; each task calls its function's current version (so a
   * running execution keeps the code it started with) and times out a little after it.
   */
  readonly functions: Readonly<Record<LoopStepName, LambdaFunction>>;
  /** Every function a call may be routed to, as calls name it (a version): the state machine may invoke each. */
  readonly toolFunctions: readonly IVersion[];
  /**
   * How long a turn may run: its first execution waits for the fresh ones it continues in
   * (ContinueAsNew `.sync:2`), so this bounds the whole turn.
   * @default - 7 days plus twice `approvalTimeout`, so sequential calls can each wait their time
   */
  readonly executionTimeout?: Duration;
  /** How long a call waits for a person's approval before it fails. @default Duration.hours(24) */
  readonly approvalTimeout?: Duration;
  /** Where every turn's end is announced. @default the account's default event bus */
  readonly eventBus?: IEventBus;
  /** What happens to its log group when the stack is deleted. @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/** How long a task waits past its function's own timeout before Step Functions gives up on it. */
const TASK_TIMEOUT_MARGIN = Duration.seconds(30);

/**
 * InvokeTool's timeout: a call may be routed to any tool function, whose timeout the definition
 * cannot know, so Lambda's 15-minute maximum plus the margin.
 */
const TOOL_TASK_TIMEOUT_SECONDS = 15 * 60 + TASK_TIMEOUT_MARGIN.toSeconds();

/** The states that find the version a continuation runs on (decision 0042); only the definition names them. */
const CONTINUATION_STATE_NAMES = {
  findVersion: 'FindVersion',
  hasVersion: 'HasVersion',
  onLatestRevision: 'OnLatestRevision',
} as const;

/** How often a duplicate request asks whether the turn it waits for has ended. */
const TURN_END_POLL_SECONDS = 5;

/** A retry on one named error, with full jitter: Step Functions owns retries, never catch-and-rethrow. */
function retryOn(error: string, intervalSeconds: number, maxAttempts: number): RetryProps {
  return {
    errors: [error],
    interval: Duration.seconds(intervalSeconds),
    maxAttempts,
    backoffRate: 2,
    jitterStrategy: JitterType.FULL,
  };
}

/** Our own transient failure: an append lost the race for the next seq. */
const RETRY_APPEND = retryOn(ERROR_NAMES.appendConflict, 1, 5);

/**
 * The store (DynamoDB) unreachable, throttling or failing after the SDK's own retries: every step
 * is idempotent by its keys, so try again, a little later.
 */
const RETRY_STORE = retryOn(ERROR_NAMES.storeUnavailable, 2, 4);

/** A provider still throttling or failing after the SDK's own retries: try again, a little later. */
const RETRY_MODEL = retryOn(ERROR_NAMES.modelUnavailable, 5, 3);

/** Where a `Catch` puts the error, as FailTurn, RecordToolFailure and ReleaseTurn read it. */
const ERROR_PATH = '$.error';

/** The JSONPath of a payload field, checked against the payload's type. */
function path<Payload>(field: keyof Payload & string): string {
  return `$.${field}`;
}

/**
 * The agent loop as a Standard workflow in JSONPath (docs/architecture.md):
 * StartTurn → ModelStep → Route → (RunTools → AdvanceTurn → Route)* → FinishTurn, with
 * ContinueAsNew past `stepsPerExecution` and every failure routed to FailTurn. State carries
 * references, counters and small bounded copies (calls and outcomes, decision 0034).
 */
export class AgentStateMachine extends Construct {
  readonly stateMachine: StateMachine;
  /** The Lambda versions its tasks call: each step function's current version (decision 0042). */
  readonly versions: readonly IVersion[];
  readonly #executionTimeout: Duration;

  constructor(scope: Construct, id: string, props: AgentStateMachineProps) {
    super(scope, id);
    const approvalTimeout = props.approvalTimeout ?? Duration.seconds(DEFAULT_APPROVAL_TIMEOUT_SECONDS);
    this.#executionTimeout =
      props.executionTimeout ?? Duration.days(7).plus(approvalTimeout).plus(approvalTimeout);
    // Each task calls its function's current version: a deploy that changes a function publishes a
    // new version and a new definition, while running executions keep calling the old one.
    const versions = new Set<IVersion>();
    const pin = (step: LoopStepName) => {
      const version = currentVersion(props.functions[step]);
      versions.add(version);
      return version;
    };
    const awaitApproval = pin('await-approval');
    // A task's output is its function's; `keepInput` tasks pass their input on instead.
    const task = (
      name: string,
      step: LoopStepName,
      options: { keepInput?: boolean; payload?: TaskInput } = {},
    ) =>
      new LambdaInvoke(this, name, {
        lambdaFunction: pin(step),
        payloadResponseOnly: true,
        ...(options.keepInput ? { resultPath: JsonPath.DISCARD } : {}),
        ...(options.payload ? { payload: options.payload } : {}),
        retryOnServiceExceptions: true,
        taskTimeout: Timeout.duration(
          (props.functions[step].timeout ?? Duration.seconds(3)).plus(TASK_TIMEOUT_MARGIN),
        ),
      })
        .addRetry(RETRY_APPEND)
        .addRetry(RETRY_STORE);

    const catchAll = { resultPath: ERROR_PATH };
    const { describeTurn, turnEnded } = this.#turnEnd(
      task(STATE_NAMES.describeTurn, 'describe-turn'),
      props.eventBus,
    );
    const kept = { keepInput: true };
    // The states that end a turn answer with its result, as DescribeTurn would: on to TurnEnded.
    // The last resort: if FailTurn itself fails, ReleaseTurn still ends the turn and frees the session.
    const releaseTurn = task(STATE_NAMES.releaseTurn, 'release-turn').next(turnEnded);
    const failTurn = task(STATE_NAMES.failTurn, 'fail-turn').addCatch(releaseTurn, catchAll).next(turnEnded);
    const startTurn = this.#startTurn(task, failTurn);
    const modelStep = task(STATE_NAMES.modelStep, 'model-step')
      .addRetry(RETRY_MODEL)
      .addCatch(failTurn, catchAll);
    const advanceTurn = task(STATE_NAMES.advanceTurn, 'advance-turn')
      .addRetry(RETRY_MODEL)
      .addCatch(failTurn, catchAll);
    const finishTurn = task(STATE_NAMES.finishTurn, 'finish-turn')
      .addCatch(failTurn, catchAll)
      .next(turnEnded);
    const runTools = this.#runTools({
      recordToolFailure: task(STATE_NAMES.recordToolFailure, 'record-tool-failure'),
      expireApproval: task(STATE_NAMES.expireApproval, 'expire-approval', kept),
      awaitApproval,
      approvalTimeout,
    }).addCatch(failTurn, catchAll);
    const continueAsNew = this.#continueAsNew(failTurn);

    // One Choice per loop iteration: RunTools, N × InvokeTool, AdvanceTurn, Route = 3 + N transitions.
    const next = path<ModelStepOutput>('next');
    const route = new Choice(this, STATE_NAMES.route)
      .when(Condition.stringEquals(next, NEXT.tools), runTools)
      .when(Condition.stringEquals(next, NEXT.results), advanceTurn)
      // The model returned nothing: the next model step asks it again (A12).
      .when(Condition.stringEquals(next, NEXT.model), modelStep)
      .when(Condition.stringEquals(next, NEXT.continue), continueAsNew)
      .otherwise(finishTurn);
    // A request another execution already started only waits for that turn's result.
    startTurn.next(
      new Choice(this, STATE_NAMES.requested)
        .when(Condition.isPresent('$.duplicate'), describeTurn)
        .otherwise(modelStep),
    );
    modelStep.next(route);
    runTools.next(advanceTurn);
    advanceTurn.next(route);

    this.stateMachine = new StateMachine(this, 'StateMachine', {
      definitionBody: DefinitionBody.fromChainable(startTurn),
      stateMachineType: StateMachineType.STANDARD,
      timeout: this.#executionTimeout,
      tracingEnabled: true,
      logs: {
        destination: new LogGroup(this, 'Logs', {
          retention: RetentionDays.ONE_MONTH,
          removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
        }),
        level: LogLevel.ALL,
        includeExecutionData: false,
      },
    });
    this.versions = [...versions];
    grantInvokeVersions(this.stateMachine, [...this.versions, ...props.toolFunctions]);
    syncExecutionPolicy(this, 'ContinueAsNewPolicy', this.stateMachine.role, this.stateMachine);
  }

  /**
   * RunTools: one InvokeTool per call, at most `$.concurrency` at once; each gives back its status
   * and, only while small, its outcome (large outputs stay out of state, B6).
   * A call whose approval is not settled fails InvokeTool with ApprovalRequired and waits on
   * AwaitApproval's task token (no Lambda runs, nothing polls) until a decision wakes it or its
   * time runs out (ExpireApproval), then runs InvokeTool again. Other calls cost one transition.
   */
  #runTools(steps: {
    recordToolFailure: IChainable;
    expireApproval: TaskStateBase;
    awaitApproval: IFunction;
    approvalTimeout: Duration;
  }): MapState {
    const { recordToolFailure } = steps;
    const invokeTool = new CustomState(this, STATE_NAMES.invokeTool, {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Stack.of(this).partition}:states:::lambda:invoke`,
        Parameters: { 'FunctionName.$': path<InvokeToolInput>('target'), 'Payload.$': '$' },
        ResultSelector: {
          'position.$': '$.Payload.position',
          'status.$': '$.Payload.status',
          'outcome.$': '$.Payload.outcome',
        },
        TimeoutSeconds: TOOL_TASK_TIMEOUT_SECONDS,
      },
    }).addRetry({
      errors: LAMBDA_SERVICE_ERRORS,
      interval: Duration.seconds(1),
      maxAttempts: 3,
      backoffRate: 2,
    });
    const fromBatch = (field: keyof InvokeToolInput & keyof ModelStepOutput) => [
      `${field}.$`,
      path<ModelStepOutput>(field),
    ];
    const fromItem = (field: keyof InvokeToolInput & keyof CallItem) => [
      `${field}.$`,
      `$$.Map.Item.Value.${field}`,
    ];
    const awaitApproval = this.#awaitApproval(steps.awaitApproval, steps.approvalTimeout)
      .addCatch(invokeTool, { errors: [ERROR_NAMES.approvalSettled], resultPath: ERROR_PATH })
      .addCatch(steps.expireApproval, { errors: ['States.Timeout'], resultPath: ERROR_PATH })
      .addCatch(recordToolFailure, { resultPath: ERROR_PATH });
    awaitApproval.next(invokeTool);
    steps.expireApproval.addCatch(recordToolFailure, { resultPath: ERROR_PATH }).next(invokeTool);
    // A call whose approval is not settled yet does not run: InvokeTool says so, and it waits.
    invokeTool
      .addCatch(awaitApproval, { errors: [ERROR_NAMES.approvalRequired], resultPath: ERROR_PATH })
      .addCatch(recordToolFailure, { resultPath: ERROR_PATH });
    return new MapState(this, STATE_NAMES.runTools, {
      itemsPath: path<ModelStepOutput>('calls'),
      maxConcurrencyPath: path<ModelStepOutput>('concurrency'),
      itemSelector: Object.fromEntries([
        ...(['session', 'turn', 'batch', 'count'] as const).map(fromBatch),
        ...(['position', 'seq', 'target', 'approval', 'call'] as const).map(fromItem),
        // Where a call's sub-agents start: this state machine's live alias, named by the execution
        // (its own ARN in its definition would be a CFN cycle).
        [
          `${'stateMachine' satisfies keyof InvokeToolInput}.$`,
          `States.Format('${this.#liveArnOf('{}')}', $$.StateMachine.Name)`,
        ],
      ]),
      // Each call's status and, when small, its outcome, in call order: AdvanceTurn's `outcomes`.
      resultPath: path<AdvanceTurnInput>('outcomes'),
    }).itemProcessor(invokeTool);
  }

  /**
   * AwaitApproval: hands the call's task token to its function, then waits for a decision to send
   * the task's success, for at most `timeout`. Its own result is not kept.
   */
  #awaitApproval(fn: IFunction, timeout: Duration): CustomState {
    const fields: ReadonlyArray<keyof AwaitApprovalInput> = [
      'session',
      'turn',
      'batch',
      'position',
      'seq',
      'target',
      'approval',
    ];
    return waitForTaskToken(this, STATE_NAMES.awaitApproval, { fn, fields, timeout })
      .addRetry(RETRY_APPEND)
      .addRetry(RETRY_STORE);
  }

  /**
   * StartTurn, given its input and its execution's name (a requested turn's ids derive from it).
   * A request that is not one, or a session another turn holds, fails the execution with that
   * error: there is no turn to close.
   */
  #startTurn(
    task: (name: string, step: LoopStepName, options: { payload: TaskInput }) => TaskStateBase,
    failTurn: IChainable,
  ): TaskStateBase {
    const notStarted = new Fail(this, STATE_NAMES.turnNotStarted, {
      errorPath: '$.error.Error',
      causePath: '$.error.Cause',
    });
    const payload = TaskInput.fromObject({ 'input.$': '$', 'execution.$': '$$.Execution.Name' });
    return task(STATE_NAMES.startTurn, 'start-turn', { payload })
      .addCatch(notStarted, {
        errors: [ERROR_NAMES.invalidTurnRequest, ERROR_NAMES.sessionBusy],
        resultPath: ERROR_PATH,
      })
      .addCatch(failTurn, { resultPath: ERROR_PATH });
  }

  /**
   * How a turn's execution ends: TurnEnded takes the turn's result (from FinishTurn, FailTurn or
   * ReleaseTurn, which end the turn and describe it, or from DescribeTurn for a duplicate request)
   * and announces it on the event bus (`Agent Turn Completed`, or `Agent Turn Failed`), the
   * execution's last state and output; a turn still running (a duplicate request's) is described
   * again in a few seconds.
   */
  #turnEnd(describe: TaskStateBase, eventBus: IEventBus | undefined) {
    const wait = new Wait(this, STATE_NAMES.awaitTurnEnd, {
      time: WaitTime.duration(Duration.seconds(TURN_END_POLL_SECONDS)),
    });
    wait.next(describe);
    const publish = (name: string, detailType: string) =>
      announceEnd(this, name, { detailType, detail: TaskInput.fromJsonPathAt('$'), eventBus });
    const turnEnded = new Choice(this, STATE_NAMES.turnEnded)
      .when(Condition.isPresent('$.pending'), wait)
      .when(
        Condition.stringEquals('$.status', 'failed' satisfies TurnResult['status']),
        publish(STATE_NAMES.publishTurnFailed, TURN_EVENT_TYPES.failed),
      )
      .otherwise(publish(STATE_NAMES.publishTurnCompleted, TURN_EVENT_TYPES.completed));
    describe.next(turnEnded);
    return { describeTurn: describe, turnEnded };
  }

  /**
   * ContinueAsNew: the same turn goes on in a fresh execution of this state machine, which this one
   * waits for (`.sync:2`, no cost while it waits) and whose output it returns: the first
   * execution's output is the turn's result, however many executions the turn took (decision 0018).
   * The fresh execution runs on this one's version (decision 0042), which the context object does
   * not carry: FindVersion asks Step Functions; one started on no version continues on the latest
   * revision. Two more transitions per continuation (three unpinned), none per loop iteration.
   */
  #continueAsNew(failTurn: IChainable): IChainable {
    const found = '$.continuation';
    const versionArn = `${found}.StateMachineVersionArn`;
    const findVersion = new CustomState(this, CONTINUATION_STATE_NAMES.findVersion, {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Stack.of(this).partition}:states:::aws-sdk:sfn:describeExecution`,
        // Metadata only: the execution's input (the user's message) stays out of state.
        Parameters: { 'ExecutionArn.$': '$$.Execution.Id', IncludedData: 'METADATA_ONLY' },
        ResultPath: found,
        TimeoutSeconds: TASK_TIMEOUT_MARGIN.toSeconds(),
      },
    }).addCatch(failTurn, { resultPath: ERROR_PATH });
    const continueAsNew = this.#startContinuation(versionArn).addCatch(failTurn, { resultPath: ERROR_PATH });
    const onLatestRevision = new Pass(this, CONTINUATION_STATE_NAMES.onLatestRevision, {
      parameters: { 'StateMachineVersionArn.$': '$$.StateMachine.Id' },
      resultPath: found,
    }).next(continueAsNew);
    return findVersion.next(
      new Choice(this, CONTINUATION_STATE_NAMES.hasVersion)
        .when(Condition.isPresent(versionArn), continueAsNew)
        .otherwise(onLatestRevision),
    );
  }

  /** The ContinueAsNew task: starts the fresh execution on the state machine `stateMachineArnPath` names. */
  #startContinuation(stateMachineArnPath: string): CustomState {
    // The fresh execution gets every field StartTurn takes, from the loop state that holds them all.
    const carried = Object.keys(startTurnInputSchema.shape).map((field) => [`${field}.$`, `$.${field}`]);
    return new CustomState(this, STATE_NAMES.continueAsNew, {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Stack.of(this).partition}:states:::states:startExecution.sync:2`,
        Parameters: {
          'StateMachineArn.$': stateMachineArnPath,
          // `<turn>-<steps so far>`: unique per continuation, and found by the turn's name to stop it.
          'Name.$': `States.Format('{}-{}', ${path<LoopState>('turn')}, ${path<LoopState>('turnSteps')})`,
          Input: {
            ...Object.fromEntries(carried),
            'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$': '$$.Execution.Id',
          },
        },
        OutputPath: '$.Output',
        TimeoutSeconds: this.#executionTimeout.toSeconds(),
      },
    });
  }

  /** The ARN of the live alias of the state machine named `name` in this stack's account and region. */
  #liveArnOf(name: string): string {
    return Stack.of(this).formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: `${name}:${LIVE_ALIAS_NAME}`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }
}
