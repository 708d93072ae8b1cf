import { ERROR_NAMES } from '@agentstep/protocol';
import { Duration, Stack } from 'aws-cdk-lib';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  Choice,
  Condition,
  CustomState,
  DefinitionBody,
  type IChainable,
  JitterType,
  JsonPath,
  LogLevel,
  Map as MapState,
  Pass,
  type RetryProps,
  StateMachine,
  StateMachineType,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import type { StepName } from './step-lambda.js';

/** Props of {@link AgentStateMachine}. */
export interface AgentStateMachineProps {
  /** The loop's Lambda functions, by step. */
  readonly functions: Readonly<Record<StepName, IFunction>>;
  /** Every function a call may be routed to: the state machine may invoke each. */
  readonly toolFunctions: readonly IFunction[];
}

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

/** A provider still throttling or failing after the SDK's own retries: try again, a little later. */
const RETRY_MODEL = retryOn(ERROR_NAMES.modelUnavailable, 5, 3);

/** Lambda's own transient errors, as CDK's `retryOnServiceExceptions` lists them. */
const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

/**
 * The agent loop as a Standard workflow in JSONPath (docs/architecture.md):
 * StartTurn → ModelStep → Route → (RunTools → AdvanceTurn → Route)* → FinishTurn, with
 * ContinueAsNew past `stepsPerExecution` and every failure routed to FailTurn. State carries
 * references only.
 */
export class AgentStateMachine extends Construct {
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: AgentStateMachineProps) {
    super(scope, id);
    const task = (name: string, step: StepName) =>
      new LambdaInvoke(this, name, {
        lambdaFunction: props.functions[step],
        payloadResponseOnly: true,
        retryOnServiceExceptions: true,
      }).addRetry(RETRY_APPEND);

    const catchAll = { resultPath: '$.error' };
    // The last resort: if FailTurn itself fails, ReleaseTurn still ends the turn and frees the session.
    const failTurn = task('FailTurn', 'fail-turn').addCatch(task('ReleaseTurn', 'release-turn'), catchAll);
    const startTurn = task('StartTurn', 'start-turn').addCatch(failTurn, catchAll);
    const modelStep = task('ModelStep', 'model-step').addRetry(RETRY_MODEL).addCatch(failTurn, catchAll);
    const advanceTurn = task('AdvanceTurn', 'advance-turn')
      .addRetry(RETRY_MODEL)
      .addCatch(failTurn, catchAll);
    const finishTurn = task('FinishTurn', 'finish-turn').addCatch(failTurn, catchAll);
    const runTools = this.#runTools(task('RecordToolFailure', 'record-tool-failure')).addCatch(
      failTurn,
      catchAll,
    );
    const continueAsNew = this.#continueAsNew().addCatch(failTurn, catchAll);

    // One Choice per loop iteration: RunTools, N × InvokeTool, AdvanceTurn, Route = 3 + N transitions.
    const route = new Choice(this, 'Route')
      .when(Condition.stringEquals('$.next', 'tools'), runTools)
      .when(Condition.stringEquals('$.next', 'results'), advanceTurn)
      .when(Condition.stringEquals('$.next', 'continue'), continueAsNew)
      .otherwise(finishTurn);
    startTurn.next(modelStep);
    modelStep.next(route);
    runTools.next(advanceTurn);
    advanceTurn.next(route);

    this.stateMachine = new StateMachine(this, 'StateMachine', {
      definitionBody: DefinitionBody.fromChainable(startTurn),
      stateMachineType: StateMachineType.STANDARD,
      tracingEnabled: true,
      logs: {
        destination: new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH }),
        level: LogLevel.ALL,
        includeExecutionData: false,
      },
    });
    for (const fn of props.toolFunctions) fn.grantInvoke(this.stateMachine.role);
    // A separate policy: the default one would make the state machine depend on its own ARN.
    new Policy(this, 'ContinueAsNewPolicy', {
      roles: [this.stateMachine.role],
      statements: [
        new PolicyStatement({
          actions: ['states:StartExecution'],
          resources: [this.stateMachine.stateMachineArn],
        }),
      ],
    });
  }

  /** RunTools: one InvokeTool per call, at most `$.concurrency` at once, outcomes kept out of state. */
  #runTools(recordToolFailure: IChainable): MapState {
    const invokeTool = new CustomState(this, 'InvokeTool', {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Stack.of(this).partition}:states:::lambda:invoke`,
        Parameters: { 'FunctionName.$': '$.target', 'Payload.$': '$' },
        ResultSelector: { 'position.$': '$.Payload.position', 'status.$': '$.Payload.status' },
      },
    })
      .addRetry({
        errors: LAMBDA_SERVICE_ERRORS,
        interval: Duration.seconds(1),
        maxAttempts: 3,
        backoffRate: 2,
      })
      .addCatch(recordToolFailure, { resultPath: '$.error' });
    return new MapState(this, 'RunTools', {
      itemsPath: '$.calls',
      maxConcurrencyPath: '$.concurrency',
      itemSelector: {
        'session.$': '$.session',
        'turn.$': '$.turn',
        'batch.$': '$.batch',
        'position.$': '$$.Map.Item.Value.position',
        'seq.$': '$$.Map.Item.Value.seq',
        'target.$': '$$.Map.Item.Value.target',
      },
      resultPath: JsonPath.DISCARD,
    }).itemProcessor(invokeTool);
  }

  /** ContinueAsNew: the same turn goes on in a fresh execution of this state machine. */
  #continueAsNew(): CustomState {
    const continued = new Pass(this, 'Continued', {
      parameters: {
        'session.$': '$.session',
        'turn.$': '$.turn',
        status: 'continued',
        'message.$': '$.continued.execution',
      },
    });
    const continueAsNew = new CustomState(this, 'ContinueAsNew', {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Stack.of(this).partition}:states:::states:startExecution`,
        Parameters: {
          'StateMachineArn.$': '$$.StateMachine.Id',
          Input: {
            'session.$': '$.session',
            'turn.$': '$.turn',
            'toolExecution.$': '$.toolExecution',
            'maxSteps.$': '$.maxSteps',
            'stepsPerExecution.$': '$.stepsPerExecution',
            'step.$': '$.step',
            'turnSteps.$': '$.turnSteps',
            'budget.$': '$.budget',
            'startedAt.$': '$.startedAt',
            'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$': '$$.Execution.Id',
          },
        },
        ResultSelector: { 'execution.$': '$.ExecutionArn' },
        ResultPath: '$.continued',
      },
    });
    continueAsNew.next(continued);
    return continueAsNew;
  }
}
