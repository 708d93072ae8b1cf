import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';

/**
 * Lets the tools function's `role` start sub-agents' turns: `states:StartExecution` on the loop.
 * A policy of its own: in the role's default policy, the loop's ARN would make the function depend
 * on the state machine that invokes it, a cycle CloudFormation refuses.
 */
export function subAgentStartPolicy(scope: Construct, id: string, role: IRole, loop: StateMachine): Policy {
  return new Policy(scope, id, {
    roles: [role],
    statements: [
      new PolicyStatement({ actions: ['states:StartExecution'], resources: [loop.stateMachineArn] }),
    ],
  });
}
