import { Duration } from 'aws-cdk-lib';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { checkedEnvironment } from './checked-environment.js';
import { functionRole } from './function-role.js';
import { lambdaCode } from './lambda-code.js';

/** Props of {@link BundledLambda}. */
export interface BundledLambdaProps {
  /** Its folder in `@agentstep/functions`, which holds its `index.ts`. */
  readonly folder: string;
  readonly environment: Record<string, string>;
  /**
   * An agent file (absolute) whose default export the function is bundled with, for the
   * functions that run or describe its tools or call its providers. @default - none
   */
  readonly agentFile?: string;
  /** @default 30 seconds */
  readonly timeout?: Duration;
  /** @default 512 MB */
  readonly memorySize?: number;
}

/**
 * One of AgentStep's Lambdas: `functions/<folder>` of the installed `@agentstep/functions` on
 * Node.js 22 and arm64, bundled in-process by esbuild (never Docker) as ESM with the AWS SDK left
 * to the runtime, traced, with its own role, allowed to write only to its own log group: no AWS
 * managed policy. Synthesis fails when its environment would not fit Lambda's 4 KB.
 */
export class BundledLambda extends Construct {
  readonly function: LambdaFunction;
  /** The agent file (absolute) its code is bundled with, if any. */
  readonly agentFile: string | undefined;

  constructor(scope: Construct, id: string, props: BundledLambdaProps) {
    super(scope, id);
    this.agentFile = props.agentFile;
    const { role, logGroup } = functionRole(this, { role: 'Role', logs: 'Logs' });
    this.function = new LambdaFunction(this, 'Function', {
      role,
      code: lambdaCode(props.folder, props.agentFile),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(30),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: checkedEnvironment(this, props.folder, {
        ...props.environment,
        POWERTOOLS_SERVICE_NAME: 'agentstep',
      }),
    });
  }
}
