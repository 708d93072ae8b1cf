import { Duration, Stack } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CustomState } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { LAMBDA_SERVICE_ERRORS } from './lambda-service-errors.js';

/** What a waiting task hands its function, and how long it waits. */
export interface WaitForTaskTokenProps {
  readonly fn: IFunction;
  /** The state's fields the function gets (each `$.field`), beside the task's `token`. */
  readonly fields: readonly string[];
  readonly timeout: Duration;
}

/**
 * A task that hands its function the given fields and its task token (`lambda:invoke.waitForTaskToken`),
 * then waits, for at most `timeout`, until someone sends the task's success; its own result is not
 * kept. Lambda's transient errors are retried: how a call waits for an approval and a run for a gate.
 */
export function waitForTaskToken(scope: Construct, id: string, props: WaitForTaskTokenProps): CustomState {
  return new CustomState(scope, id, {
    stateJson: {
      Type: 'Task',
      Resource: `arn:${Stack.of(scope).partition}:states:::lambda:invoke.waitForTaskToken`,
      Parameters: {
        FunctionName: props.fn.functionArn,
        Payload: {
          ...Object.fromEntries(props.fields.map((field) => [`${field}.$`, `$.${field}`])),
          'token.$': '$$.Task.Token',
        },
      },
      ResultPath: null,
      TimeoutSeconds: props.timeout.toSeconds(),
    },
  }).addRetry({
    errors: LAMBDA_SERVICE_ERRORS,
    interval: Duration.seconds(1),
    maxAttempts: 3,
    backoffRate: 2,
  });
}
