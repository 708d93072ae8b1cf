import { Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AgentStep, type AgentStepProps } from './agent-step.js';
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
      ...(this.agent.workspace ? workspaceFindings(this, this.agent.workspace, wildcard) : []),
      ...bedrockFindings(props.agent?.model, wildcard),
      {
        id: 'AwsSolutions::AwsSolutions-L1',
        reason:
          'Node.js 22 is the runtime AgentStep is built and tested for; newer runtimes are adopted deliberately.',
      },
    ];
    for (const finding of findings) Validations.of(this.agent).acknowledge(finding);
  }
}

function workspaceFindings(
  stack: Stack,
  bucket: Bucket,
  wildcard: (resource: string, reason: string) => { id: string; reason: string },
) {
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
function bedrockFindings(
  model: string | undefined,
  wildcard: (resource: string, reason: string) => { id: string; reason: string },
) {
  const modelId = model?.startsWith('bedrock:') ? model.slice('bedrock:'.length) : '';
  const foundationModel = profileFoundationModel(modelId);
  if (foundationModel === undefined) return [];
  return profileRegions(modelId).map((regions) =>
    wildcard(
      `arn:<AWS::Partition>:bedrock:${regions}::foundation-model/${foundationModel}`,
      'A cross-region inference profile invokes its one foundation model in whichever region of its geography it routes to.',
    ),
  );
}
