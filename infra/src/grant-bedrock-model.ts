import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** Cross-region inference profiles start with a geography: `us.`, `eu.`, `apac.`, `global.`, … */
const INFERENCE_PROFILE = /^(?:us|us-gov|eu|apac|jp|au|ca|global)\.(.+)$/;

/** The foundation model a cross-region inference profile id routes to, if the id is one. */
export function profileFoundationModel(modelId: string): string | undefined {
  return INFERENCE_PROFILE.exec(modelId)?.[1];
}

/**
 * Lets a function stream from one Bedrock model (ConverseStream needs
 * `bedrock:InvokeModelWithResponseStream`): the foundation model in this region, or an inference
 * profile and its foundation model in every region it routes to, or the ARN given.
 */
export function grantBedrockModel(fn: IFunction, modelId: string): void {
  const { partition, region, account } = Stack.of(fn);
  const foundationModel = profileFoundationModel(modelId);
  const resources = modelId.startsWith('arn:')
    ? [modelId]
    : foundationModel
      ? [
          `arn:${partition}:bedrock:${region}:${account}:inference-profile/${modelId}`,
          `arn:${partition}:bedrock:*::foundation-model/${foundationModel}`,
        ]
      : [`arn:${partition}:bedrock:${region}::foundation-model/${modelId}`];
  fn.addToRolePolicy(new PolicyStatement({ actions: ['bedrock:InvokeModelWithResponseStream'], resources }));
}
