import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_NAMES } from '@agentstep/protocol';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The workspace root, found upward from this module (which may also run from a bundle elsewhere). */
function findRepositoryRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
  }
  throw new Error(`No pnpm-workspace.yaml above ${from}: run from inside the AgentStep repository.`);
}

/** The repository's root folder. */
export const repositoryRoot = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));

/**
 * How every step's Lambda is bundled: ESM for Node.js 22 by the local esbuild (never Docker),
 * minified with source maps, the AWS SDK left to the runtime. Exported so the benchmark measures
 * exactly what deploys.
 */
export const STEP_BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  minify: true,
  sourceMap: true,
  forceDockerBundling: false,
  externalModules: ['@aws-sdk/*'],
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
};

/** The Lambda functions of the loop, by folder name under `functions/`. */
export type StepName =
  | 'start-turn'
  | 'model-step'
  | 'invoke-tool'
  | 'record-tool-failure'
  | 'advance-turn'
  | 'finish-turn'
  | 'fail-turn'
  | 'release-turn'
  | 'close-stopped-turn';

/** The steps the state machine's tasks run (CloseStoppedTurn is an EventBridge target instead). */
export type LoopStepName = Exclude<StepName, 'close-stopped-turn'>;

/** Props of {@link StepLambda}. */
export interface StepLambdaProps {
  readonly step: StepName;
  readonly environment: Record<string, string>;
  /** @default 30 seconds */
  readonly timeout?: Duration;
  /** @default 512 MB */
  readonly memorySize?: number;
}

/**
 * One step's Lambda: Node.js 22 on arm64, bundled by the local esbuild (never Docker) as ESM with
 * the AWS SDK left to the runtime, with its own role and log group. `AGENTSTEP_STEP` names the step, so the
 * local engine can route the synthesized definition's tasks to the same handler.
 */
export class StepLambda extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: StepLambdaProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Its own role, allowed to write only to its own log group: no AWS managed policy.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, 'Function', {
      role,
      entry: join(repositoryRoot, 'functions', props.step, 'index.ts'),
      projectRoot: repositoryRoot,
      depsLockFilePath: join(repositoryRoot, 'pnpm-lock.yaml'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(30),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: {
        ...props.environment,
        [ENV_NAMES.step]: props.step,
        POWERTOOLS_SERVICE_NAME: 'agentstep',
      },
      bundling: STEP_BUNDLING,
    });
  }
}
