import {
  type AwaitGateInput,
  ERROR_NAMES,
  type GoalTurn,
  WORKFLOW_EVENT_TYPES,
  WORKFLOW_NEXT,
  WORKFLOW_STATE_NAMES,
} from '@agentstep/protocol';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  type Chain,
  Choice,
  Condition,
  CustomState,
  DefinitionBody,
  Fail,
  JsonPath,
  LogLevel,
  Map as MapState,
  Pass,
  StateMachine,
  StateMachineType,
  Succeed,
  TaskInput,
  Timeout,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { announceEnd } from './announce-end.js';
import { currentVersion } from './current-version.js';
import { grantInvokeVersions } from './grant-invoke-versions.js';
import { syncExecutionPolicy } from './sync-execution-policy.js';
import { waitForTaskToken } from './wait-for-task-token.js';

/** Props of {@link WorkflowStateMachine}. */
export interface WorkflowStateMachineProps {
  readonly advance: LambdaFunction;
  readonly awaitGate: LambdaFunction;
  /** The agent state machine each goal's turn runs on, as a child execution. */
  readonly agent: StateMachine;
  /** The alias of `agent` that goals start through, its `live` one (decision 0042). */
  readonly agentLiveArn: string;
  /** How long a human gate waits for a person before the goal fails. @default Duration.days(7) */
  readonly gateTimeout?: Duration;
  /** How long a whole workflow run may take. @default Duration.days(21) */
  readonly executionTimeout?: Duration;
  /** Where a run's end is announced (`Workflow Run Completed` or `Failed`). @default the account's default bus */
  readonly eventBus?: IEventBus;
  /** What happens to its log group when the stack is deleted. @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/** How long a task waits past its function's own timeout before Step Functions gives up on it. */
const TASK_TIMEOUT_MARGIN = Duration.seconds(30);

/**
 * Runs any workflow (docs/decisions/0020-workflows.md): the execution's input names a run whose log
 * holds the workflow and its inputs (no redeploy for a new Agentfile). AdvanceWorkflow plans from
 * the log; RunGoals starts each planned goal turn as a child execution of the agent state machine
 * (`.sync:2`, in parallel, in the plan's order); AwaitGate waits on a task token for a person;
 * every path comes back to AdvanceWorkflow until the run ends.
 */
export class WorkflowStateMachine extends Construct {
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: WorkflowStateMachineProps) {
    super(scope, id);
    const names = WORKFLOW_STATE_NAMES;
    const executionTimeout = props.executionTimeout ?? Duration.days(21);
    // Tasks call their functions' current versions: a running execution keeps the code it started with.
    const advanceVersion = currentVersion(props.advance);
    const advance = new LambdaInvoke(this, names.advance, {
      lambdaFunction: advanceVersion,
      payloadResponseOnly: true,
      payload: TaskInput.fromObject({ 'state.$': '$', 'execution.$': '$$.Execution.Name' }),
      retryOnServiceExceptions: true,
      taskTimeout: Timeout.duration((props.advance.timeout ?? Duration.seconds(3)).plus(TASK_TIMEOUT_MARGIN)),
    }).addRetry({
      errors: [ERROR_NAMES.appendConflict],
      interval: Duration.seconds(1),
      maxAttempts: 5,
      backoffRate: 2,
    });
    const runGoals = this.#runGoals(props.agentLiveArn).next(advance);
    const gateVersion = currentVersion(props.awaitGate);
    const awaitGate = this.#awaitGate(gateVersion, props.gateTimeout ?? Duration.days(7));
    awaitGate
      .addCatch(advance, { errors: [ERROR_NAMES.gateSettled], resultPath: JsonPath.DISCARD })
      .addCatch(advance, { errors: ['States.Timeout'], resultPath: '$.caught' })
      .next(advance);
    const next = '$.next';
    const failed = new Fail(this, names.failed, { errorPath: '$.error', causePath: '$.message' });
    advance.next(
      new Choice(this, names.route)
        .when(Condition.stringEquals(next, WORKFLOW_NEXT.goals), runGoals)
        .when(Condition.stringEquals(next, WORKFLOW_NEXT.gate), awaitGate)
        .when(
          Condition.stringEquals(next, WORKFLOW_NEXT.failed),
          this.#announce('failed', failed, props.eventBus),
        )
        .otherwise(this.#announce('completed', new Succeed(this, names.done), props.eventBus)),
    );
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      definitionBody: DefinitionBody.fromChainable(advance),
      stateMachineType: StateMachineType.STANDARD,
      timeout: executionTimeout,
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
    grantInvokeVersions(this.stateMachine, [advanceVersion, gateVersion]);
    // Start the agent's executions (authorized on its own ARN, through an alias too), follow them
    // (`.sync:2`) and stop them when this run is stopped.
    syncExecutionPolicy(this, 'ChildExecutionsPolicy', this.stateMachine.role, props.agent);
  }

  /**
   * RunGoals: each planned turn as a child execution of the agent (`.sync:2`: no cost while it
   * waits). A child that fails is not this run's failure: AdvanceWorkflow reads how each turn
   * ended from its session's log. The child's own timeout bounds it.
   */
  #runGoals(agentLiveArn: string): MapState {
    const fields: ReadonlyArray<keyof GoalTurn> = ['session', 'turn', 'maxSteps'];
    const runGoal = new CustomState(this, WORKFLOW_STATE_NAMES.runGoal, {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Stack.of(this).partition}:states:::states:startExecution.sync:2`,
        Parameters: {
          StateMachineArn: agentLiveArn,
          Input: {
            ...Object.fromEntries(fields.map((field) => [`${field}.$`, `$.${field}`])),
            'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$': '$$.Execution.Id',
          },
        },
        ResultPath: null,
      },
    }).addCatch(new Pass(this, WORKFLOW_STATE_NAMES.goalStopped), { resultPath: JsonPath.DISCARD });
    return new MapState(this, WORKFLOW_STATE_NAMES.runGoals, {
      itemsPath: '$.goals',
      resultPath: JsonPath.DISCARD,
    }).itemProcessor(runGoal);
  }

  /**
   * Announces the run's end on the event bus (`{run, status, message, error?}`), then ends the
   * execution; the state's `run`, `next`, `message` and `error` pass through unchanged.
   */
  #announce(end: keyof typeof WORKFLOW_EVENT_TYPES, last: Fail | Succeed, eventBus?: IEventBus): Chain {
    const detail = {
      'run.$': '$.run',
      'status.$': '$.next',
      'message.$': '$.message',
      ...(end === 'failed' ? { 'error.$': '$.error' } : {}),
    };
    const names = {
      completed: WORKFLOW_STATE_NAMES.publishCompleted,
      failed: WORKFLOW_STATE_NAMES.publishFailed,
    };
    const detailType = WORKFLOW_EVENT_TYPES[end];
    return announceEnd(this, names[end], { detailType, detail: TaskInput.fromObject(detail), eventBus }).next(
      last,
    );
  }

  /** AwaitGate: hands the gate's task token to its function, then waits for a person's decision. */
  #awaitGate(fn: IFunction, timeout: Duration): CustomState {
    const fields: ReadonlyArray<keyof AwaitGateInput> = ['run', 'gate'];
    return waitForTaskToken(this, WORKFLOW_STATE_NAMES.awaitGate, { fn, fields, timeout });
  }
}
