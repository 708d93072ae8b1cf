import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { functionRole } from './function-role.js';

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
 * How every AgentStep Lambda is bundled: ESM for Node.js 22 by the local esbuild (never Docker),
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

/** Props of {@link BundledLambda}. */
export interface BundledLambdaProps {
  /** Its folder under `functions/`, which holds its `index.ts`. */
  readonly folder: string;
  readonly environment: Record<string, string>;
  /** @default 30 seconds */
  readonly timeout?: Duration;
  /** @default 512 MB */
  readonly memorySize?: number;
}

/**
 * One of AgentStep's Lambdas: `functions/<folder>/index.ts` on Node.js 22 and arm64, bundled by the
 * local esbuild (never Docker) as ESM with the AWS SDK left to the runtime, traced, with its own
 * role, allowed to write only to its own log group: no AWS managed policy.
 */
export class BundledLambda extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: BundledLambdaProps) {
    super(scope, id);
    const { role, logGroup } = functionRole(this, { role: 'Role', logs: 'Logs' });
    this.function = new NodejsFunction(this, 'Function', {
      role,
      entry: join(repositoryRoot, 'functions', props.folder, 'index.ts'),
      projectRoot: repositoryRoot,
      depsLockFilePath: join(repositoryRoot, 'pnpm-lock.yaml'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(30),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: { ...props.environment, POWERTOOLS_SERVICE_NAME: 'agentstep' },
      bundling: STEP_BUNDLING,
    });
  }
}
