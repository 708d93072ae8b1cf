import { ArnFormat, Stack } from 'aws-cdk-lib';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';

/**
 * Lets `role` start executions of `target` and follow them with `.sync:2` (describe them, stop them
 * when the caller is stopped, the managed rule Step Functions watches them with). A policy of its
 * own: a state machine's default policy naming its own ARN would make it depend on itself.
 */
export function syncExecutionPolicy(scope: Construct, id: string, role: IRole, target: StateMachine): Policy {
  const stack = Stack.of(scope);
  return new Policy(scope, id, {
    roles: [role],
    statements: [
      new PolicyStatement({ actions: ['states:StartExecution'], resources: [target.stateMachineArn] }),
      new PolicyStatement({
        actions: ['states:DescribeExecution', 'states:StopExecution'],
        resources: [
          stack.formatArn({
            service: 'states',
            resource: 'execution',
            resourceName: `${target.stateMachineName}:*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
      new PolicyStatement({
        actions: ['events:PutTargets', 'events:PutRule', 'events:DescribeRule'],
        resources: [
          stack.formatArn({
            service: 'events',
            resource: 'rule',
            resourceName: 'StepFunctionsGetEventsForStepFunctionsExecutionRule',
          }),
        ],
      }),
    ],
  });
}
