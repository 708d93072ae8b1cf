import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { CfnStateMachineAlias } from 'aws-cdk-lib/aws-stepfunctions';

/** How a deploy moves new turns to the new version of the loop (decision 0042). */
export interface AgentDeployment {
  /**
   * `all-at-once`: every new turn at once; `canary`: `percent` of new turns for `intervalMinutes`,
   * then all; `linear`: `percent` more every `intervalMinutes`. Running turns never move.
   */
  readonly strategy: 'all-at-once' | 'canary' | 'linear';
  /** The share of new turns each step moves, 1–99 (canary and linear only). @default 10 */
  readonly percent?: number;
  /** Minutes between steps, 1–2100 (canary and linear only). @default 5 */
  readonly intervalMinutes?: number;
  /**
   * Alarms that roll the deploy back while it shifts, up to 100 (`[]`: none).
   * @default - the agent's `failureAlarm` (executions failed, timed out or aborted)
   */
  readonly alarms?: readonly IAlarm[];
}

/** CloudFormation's limits on an alias's DeploymentPreference. */
const LIMITS = { percent: [1, 99], intervalMinutes: [1, 2100], alarms: 100 } as const;

const TYPES = { 'all-at-once': 'ALL_AT_ONCE', canary: 'CANARY', linear: 'LINEAR' } as const;

/**
 * The alias's DeploymentPreference for `deployment`, shifting to `version`; `failureAlarm` watches
 * it unless other alarms are given. A value CloudFormation would refuse fails synthesis here, naming it.
 */
export function deploymentPreference(
  deployment: AgentDeployment,
  version: string,
  failureAlarm: IAlarm,
): CfnStateMachineAlias.DeploymentPreferenceProperty {
  const type = TYPES[deployment.strategy];
  if (type === undefined)
    throw new Error(
      `AgentStep prop deployment.strategy must be 'all-at-once', 'canary' or 'linear', received ${JSON.stringify(deployment.strategy)}.`,
    );
  const alarms = deployment.alarms ?? [failureAlarm];
  if (alarms.length > LIMITS.alarms)
    throw new Error(
      `AgentStep prop deployment.alarms may name at most ${LIMITS.alarms} alarms, received ${alarms.length}.`,
    );
  return {
    type,
    stateMachineVersionArn: version,
    ...(alarms.length > 0 ? { alarms: alarms.map((alarm) => alarm.alarmName) } : {}),
    ...(type === 'ALL_AT_ONCE' ? allAtOnce(deployment) : gradual(deployment)),
  };
}

/** All at once has no steps: a percent or an interval is a mistake, not a no-op. */
function allAtOnce(deployment: AgentDeployment): Record<string, never> {
  for (const field of ['percent', 'intervalMinutes'] as const)
    if (deployment[field] !== undefined)
      throw new Error(
        `AgentStep prop deployment.${field} applies to the 'canary' and 'linear' strategies only; remove it, or choose one of them.`,
      );
  return {};
}

function gradual(deployment: AgentDeployment): { percentage: number; interval: number } {
  return {
    percentage: whole('percent', deployment.percent ?? 10),
    interval: whole('intervalMinutes', deployment.intervalMinutes ?? 5),
  };
}

function whole(field: 'percent' | 'intervalMinutes', value: number): number {
  const [min, max] = LIMITS[field];
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(
      `AgentStep prop deployment.${field} must be a whole number from ${min} to ${max}, received ${value}.`,
    );
  return value;
}
