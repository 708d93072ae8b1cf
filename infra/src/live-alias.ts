import { RemovalPolicy } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import {
  CfnStateMachineAlias,
  CfnStateMachineVersion,
  type StateMachine,
} from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { type AgentDeployment, deploymentPreference } from './deployment-preference.js';

/** The alias every execution of the loop starts through, so it runs on one version to its end. */
export const LIVE_ALIAS_NAME = 'live';

/** Props of {@link LiveAlias}. */
export interface LiveAliasProps {
  readonly stateMachine: StateMachine;
  /** @default - all at once */
  readonly deployment?: AgentDeployment;
  /** The alarm that rolls a deploy back, unless the deployment names its own. */
  readonly failureAlarm: IAlarm;
}

/**
 * A state machine version published on every deploy (its revision changed: CloudFormation replaces
 * the version and keeps the earlier one, for running executions and rollback), and the `live` alias
 * that shifts new executions to it as the deployment preference says (decision 0042).
 */
export class LiveAlias extends Construct {
  /** The version this deploy published. */
  readonly version: CfnStateMachineVersion;
  readonly alias: CfnStateMachineAlias;
  /** The alias's ARN: start executions with it (`<state machine ARN>:live`). */
  readonly arn: string;

  constructor(scope: Construct, id: string, props: LiveAliasProps) {
    super(scope, id);
    const { stateMachine } = props;
    this.version = new CfnStateMachineVersion(this, 'Version', {
      stateMachineArn: stateMachine.stateMachineArn,
      // A new revision replaces the resource: a new version is published, the old one kept.
      stateMachineRevisionId: stateMachine.stateMachineRevisionId,
    });
    this.version.applyRemovalPolicy(RemovalPolicy.RETAIN);
    this.alias = new CfnStateMachineAlias(this, 'Alias', {
      name: LIVE_ALIAS_NAME,
      description: 'Every execution of the agent loop starts here (AgentStep, decision 0042).',
      deploymentPreference: deploymentPreference(
        props.deployment ?? { strategy: 'all-at-once' },
        this.version.ref,
        props.failureAlarm,
      ),
    });
    this.arn = this.alias.ref;
  }
}
