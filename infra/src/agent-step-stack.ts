import { STACK_OUTPUTS } from '@agentstep/protocol';
import {
  CfnOutput,
  type CfnResource,
  DefaultStackSynthesizer,
  Fn,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import type { CfnFunction, SingletonFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AgentStep, type AgentStepProps } from './agent-step.js';
import type { AgentStepConsole } from './agent-step-console.js';
import { profileFoundationModel, profileRegions } from './grant-bedrock-model.js';

/** Props of {@link AgentStepStack}. */
export interface AgentStepStackProps extends StackProps {
  readonly agent?: AgentStepProps;
  /** The name of a secret holding the model's API key as plain text (the agent's `modelApiKey`). */
  readonly modelApiKeySecret?: string;
}

/** A stack holding one {@link AgentStep}, acknowledging the cdk-nag findings we accept, each with why. */
export class AgentStepStack extends Stack {
  readonly agent: AgentStep;

  constructor(scope: Construct, id: string, props: AgentStepStackProps = {}) {
    super(scope, id, props);
    const modelApiKey = props.modelApiKeySecret
      ? Secret.fromSecretNameV2(this, 'ModelApiKey', props.modelApiKeySecret)
      : undefined;
    this.agent = new AgentStep(this, 'Agent', { ...props.agent, ...(modelApiKey ? { modelApiKey } : {}) });
    const wildcard = (resource: string, reason: string) => ({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::${resource}]`,
      reason,
    });
    const findings = [
      wildcard('*', 'X-Ray trace segments and CloudWatch log delivery have no resource-level permissions.'),
      ...Object.values(this.agent.functions).map((fn) =>
        wildcard(
          `<${this.getLogicalId(fn.node.defaultChild as CfnFunction)}.Arn>:*`,
          'The state machine invokes versions of its own step functions, as CDK grants it.',
        ),
      ),
      wildcard(
        `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:<${this.getLogicalId(this.agent.stateMachine.node.defaultChild as CfnResource)}.Name>:*`,
        'ContinueAsNew (.sync:2) follows and stops the fresh executions the loop starts of itself, named only at run time, as CDK grants its own startExecution tasks.',
      ),
      ...(this.agent.workspace ? workspaceFindings(this, this.agent.workspace, wildcard) : []),
      ...this.agent.models.flatMap((model) => bedrockFindings(model, wildcard)),
      wildcard(
        `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${loopName(this, this.agent)}:*`,
        "Cancelling a turn (the API) and suspending a tenant (the operator function) stop its running executions, named after the turn and found by listing the loop's executions.",
      ),
      ...(this.agent.api ? apiFindings() : []),
      {
        id: 'AwsSolutions::AwsSolutions-SQS3',
        reason:
          "The triggers' queue (agent.triggerDeadLetterQueue) is a dead-letter queue itself: rules send it the events whose turns could not start, through their targets' DeadLetterConfig, which this check does not see.",
      },
      {
        id: 'AwsSolutions::AwsSolutions-L1',
        reason:
          'Node.js 22 is the runtime AgentStep is built and tested for; newer runtimes are adopted deliberately.',
      },
    ];
    for (const finding of findings) Validations.of(this.agent).acknowledge(finding);
    if (this.agent.console) acknowledgeConsoleFindings(this, this.agent.console);
    new CfnOutput(this, STACK_OUTPUTS.liveAliasArn, {
      description:
        'Every turn starts through this alias; roll back by pointing it at an earlier version (docs/decisions/0042-pinned-deploys.md).',
      value: this.agent.live.arn,
    });
    new CfnOutput(this, STACK_OUTPUTS.operatorFunctionName, {
      description:
        'The kill switch and tenant ceilings: aws lambda invoke --function-name <this> --cli-binary-format raw-in-base64-out --payload \'{"action":"suspend","tenant":"…"}\' /dev/stdout (README: The kill switch).',
      value: this.agent.operator.functionName,
    });
    if (this.agent.api)
      new CfnOutput(this, STACK_OUTPUTS.apiUrl, {
        description: 'The AgentStep HTTP API: POST {url}sessions starts a session.',
        value: this.agent.api.url,
      });
    if (this.agent.console)
      new CfnOutput(this, STACK_OUTPUTS.consoleUrl, {
        description:
          'The AgentStep web console: register this URL as a redirect URI of the console’s OIDC client at the issuer.',
        value: this.agent.console.url,
      });
  }
}

type Wildcard = (resource: string, reason: string) => { id: string; reason: string };

/** The loop's name as CDK's execution grants build their ARNs from the machine's ARN, resolved. */
function loopName(stack: Stack, agent: AgentStep): string {
  return JSON.stringify(stack.resolve(Fn.select(6, Fn.split(':', agent.stateMachine.stateMachineArn))));
}

/** The HTTP API's accepted findings. */
function apiFindings() {
  return [
    {
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "API Gateway's account-wide CloudWatch Logs role, which its access and execution logs need, with the managed policy AWS documents for it (the api prop's cloudWatchRole: false leaves it out).",
    },
    {
      id: 'AwsSolutions::AwsSolutions-COG4',
      reason:
        'Every method is authorized, by IAM or by a Lambda authorizer that checks JWTs of any OIDC issuer (a Cognito user pool is one); the construct does not tie callers to Cognito.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-APIG3',
      reason:
        'The stage is throttled and every method authorized; associate a WAF web ACL with agent.api.deploymentStage where a deployment needs one (it has its own cost and rules).',
    },
  ];
}

/**
 * The console's accepted findings: CloudFront without a custom domain, WAF or geo restrictions, and
 * BucketDeployment's provider function (CDK's Python runtime, its S3 grants, one per stack).
 */
function acknowledgeConsoleFindings(stack: Stack, webConsole: AgentStepConsole): void {
  const qualifier =
    stack.synthesizer instanceof DefaultStackSynthesizer ? stack.synthesizer.bootstrapQualifier : undefined;
  const assets = `arn:<AWS::Partition>:s3:::cdk-${qualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-<AWS::Region>/*`;
  const deploymentReason =
    "BucketDeployment's provider function, as CDK grants it: it reads the console's asset from the CDK assets bucket, replaces every object in the console's bucket and invalidates the distribution (CloudFront invalidations have no resource-level permissions).";
  // Only the deployment function's role: a wildcard anywhere else in the console stays a finding.
  Validations.of(webConsole.node.findChild('DeploymentRole')).acknowledge(
    ...[
      'Action::s3:GetObject*',
      'Action::s3:GetBucket*',
      'Action::s3:List*',
      'Action::s3:DeleteObject*',
      'Action::s3:Abort*',
      `Resource::${assets}`,
      `Resource::<${stack.getLogicalId(webConsole.bucket.node.defaultChild as CfnBucket)}.Arn>/*`,
      'Resource::*',
    ].map((finding) => ({ id: `AwsSolutions::AwsSolutions-IAM5[${finding}]`, reason: deploymentReason })),
  );
  Validations.of(webConsole.distribution).acknowledge(
    {
      id: 'AwsSolutions::AwsSolutions-CFR1',
      reason:
        'The console and the API serve their users wherever they are; every API request is authorized. Add a geo restriction to agent.console.distribution where a deployment needs one.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-CFR2',
      reason:
        'The API behind the distribution is throttled and authorizes every request; associate a WAF web ACL (webAclId) where a deployment needs one (it has its own cost and rules).',
    },
    {
      id: 'AwsSolutions::AwsSolutions-CFR4',
      reason:
        "The distribution has no custom domain, so it uses CloudFront's default *.cloudfront.net certificate, whose minimum protocol CloudFront fixes at TLSv1; a custom domain's certificate allows TLSv1.2_2021.",
    },
  );
  Validations.of(stack.node.findChild(deploymentFunction(webConsole).constructName)).acknowledge({
    id: 'AwsSolutions::AwsSolutions-L1',
    reason: "BucketDeployment's provider function runs on the Python runtime CDK builds and tests it for.",
  });
}

/** BucketDeployment's provider: a SingletonFunction whose function sits at the stack's root. */
function deploymentFunction(webConsole: AgentStepConsole): SingletonFunction {
  return webConsole.deployment.node.findChild('CustomResourceHandler') as SingletonFunction;
}

function workspaceFindings(stack: Stack, bucket: Bucket, wildcard: Wildcard) {
  return [
    wildcard(
      `<${stack.getLogicalId(bucket.node.defaultChild as CfnBucket)}.Arn>/sessions/*`,
      'The workspace tools read and write any file of any session under the sessions/ prefix; sessions are keys, not IAM principals.',
    ),
    {
      id: 'AwsSolutions::AwsSolutions-S1',
      reason:
        "The workspace holds agents' scratch files, written only by the tools function; enable CloudTrail S3 data events where an audit trail is required.",
    },
  ];
}

/** A cross-region inference profile routes to its foundation model in any region it chooses. */
function bedrockFindings(model: string, wildcard: Wildcard) {
  const modelId = model.startsWith('bedrock:') ? model.slice('bedrock:'.length) : '';
  const foundationModel = profileFoundationModel(modelId);
  if (foundationModel === undefined) return [];
  return profileRegions(modelId).map((regions) =>
    wildcard(
      `arn:<AWS::Partition>:bedrock:${regions}::foundation-model/${foundationModel}`,
      'A cross-region inference profile invokes its one foundation model in whichever region of its geography it routes to.',
    ),
  );
}
