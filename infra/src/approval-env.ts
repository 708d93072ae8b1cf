import { ENV_NAMES } from '@agentstep/protocol';
import type { Duration } from 'aws-cdk-lib';

/** The approval props of `AgentStep`. */
export interface ApprovalProps {
  readonly approvals?: readonly string[];
  readonly approvalTimeout?: Duration;
}

/** Step Functions' longest `TimeoutSeconds` for a task. */
const MAX_TASK_TIMEOUT_SECONDS = 99_999_999;

/**
 * The environment that tells the functions which calls wait for approval and for how long, checked
 * at synthesis: tool names (or `*`), and a timeout of whole seconds within Step Functions' range.
 */
export function approvalEnv(props: ApprovalProps): Record<string, string> {
  const seconds = props.approvalTimeout?.toSeconds();
  if (
    seconds !== undefined &&
    (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TASK_TIMEOUT_SECONDS)
  )
    throw new Error(
      `AgentStep prop approvalTimeout must be whole seconds from 1 to ${MAX_TASK_TIMEOUT_SECONDS}, received ${seconds}.`,
    );
  const bad = props.approvals?.find((name) => name !== '*' && !/^[A-Za-z_][\w.-]{0,63}$/.test(name));
  if (bad !== undefined)
    throw new Error(
      `AgentStep prop approvals names "${bad}", which is not a tool name (or "*" for every tool).`,
    );
  return {
    ...(props.approvals?.length ? { [ENV_NAMES.approvals]: props.approvals.join(',') } : {}),
    ...(seconds === undefined ? {} : { [ENV_NAMES.approvalTimeout]: String(seconds) }),
  };
}
