import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * The regions an inference profile's geography routes requests to, as IAM region patterns:
 * a `global.` profile may route to any commercial region.
 */
const PROFILE_REGIONS: Readonly<Record<string, readonly string[]>> = {
  us: ['us-*'],
  'us-gov': ['us-gov-*'],
  eu: ['eu-*'],
  apac: ['ap-*'],
  jp: ['ap-northeast-1', 'ap-northeast-3'],
  au: ['ap-southeast-2', 'ap-southeast-4'],
  ca: ['ca-*'],
  global: ['*'],
};

/** Cross-region inference profile ids start with a geography: `us.`, `eu.`, `apac.`, `global.`, … */
const INFERENCE_PROFILE = new RegExp(`^(?:${Object.keys(PROFILE_REGIONS).join('|')})\\.(.+)$`);

/** The IAM region patterns a cross-region inference profile id routes to (by its geography). */
export function profileRegions(modelId: string): readonly string[] {
  return PROFILE_REGIONS[modelId.split('.')[0] ?? ''] ?? ['*'];
}

/** The foundation model a cross-region inference profile id routes to, if the id is one. */
export function profileFoundationModel(modelId: string): string | undefined {
  return INFERENCE_PROFILE.exec(modelId)?.[1];
}

/**
 * Lets a function stream from one Bedrock model (ConverseStream needs
 * `bedrock:InvokeModelWithResponseStream`): the foundation model in this region, or an inference
 * profile and its foundation model in the regions its geography routes to, or the ARN given.
 */
export function grantBedrockModel(fn: IFunction, modelId: string): void {
  const { partition, region, account } = Stack.of(fn);
  const foundationModel = profileFoundationModel(modelId);
  const resources = modelId.startsWith('arn:')
    ? [modelId]
    : foundationModel
      ? [
          `arn:${partition}:bedrock:${region}:${account}:inference-profile/${modelId}`,
          ...profileRegions(modelId).map(
            (regions) => `arn:${partition}:bedrock:${regions}::foundation-model/${foundationModel}`,
          ),
        ]
      : [`arn:${partition}:bedrock:${region}::foundation-model/${modelId}`];
  fn.addToRolePolicy(new PolicyStatement({ actions: ['bedrock:InvokeModelWithResponseStream'], resources }));
}
