import { ENV_NAMES } from '@agentstep/protocol';
import type { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { BundledLambda } from './bundled-lambda.js';

/** The Lambda functions of the loop, by folder name under `functions/`. */
export type StepName =
  | 'start-turn'
  | 'model-step'
  | 'invoke-tool'
  | 'record-tool-failure'
  | 'await-approval'
  | 'expire-approval'
  | 'advance-turn'
  | 'finish-turn'
  | 'fail-turn'
  | 'release-turn'
  | 'describe-turn'
  | 'close-stopped-turn'
  | WorkflowStepName;

/** The Lambda functions of the workflow state machine. */
export type WorkflowStepName = 'advance-workflow' | 'await-gate';

/** The steps the loop's tasks run (CloseStoppedTurn is an EventBridge target instead). */
export type LoopStepName = Exclude<StepName, 'close-stopped-turn' | WorkflowStepName>;

/**
 * EventBridge targets only a deployment runs: the local engine has no handler for them, as
 * `agentstep serve` does their work in-process (StartQueuedTurn: it starts queued turns itself).
 */
export type DeployedStepName = 'start-queued-turn';

/** Props of {@link StepLambda}. */
export interface StepLambdaProps {
  readonly step: StepName | DeployedStepName;
  readonly environment: Record<string, string>;
  /** An agent file (absolute) the function is bundled with. @default - none */
  readonly agentFile?: string;
  /** @default 30 seconds */
  readonly timeout?: Duration;
  /** @default 512 MB */
  readonly memorySize?: number;
}

/**
 * One step's Lambda ({@link BundledLambda} of `functions/<step>/`). `AGENTSTEP_STEP` names the step,
 * so the local engine can route the synthesized definition's tasks to the same handler.
 */
export class StepLambda extends BundledLambda {
  constructor(scope: Construct, id: string, props: StepLambdaProps) {
    const { step, environment, ...rest } = props;
    super(scope, id, { ...rest, folder: step, environment: { ...environment, [ENV_NAMES.step]: step } });
  }
}
