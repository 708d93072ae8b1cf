import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/** Where CloudWatch's traces go, and as whom. */
export interface CloudWatchTraceConfig {
  /** The region whose endpoint takes the spans. */
  region: string;
  /** @default the AWS SDK's default chain (a Lambda function's role, variables, profile, SSO, …) */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Read for `AWS_ENDPOINT_URL_XRAY` and `AWS_ENDPOINT_URL`, as the AWS SDK reads them. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/**
 * What CloudWatch's OTLP traces endpoint needs that a request cannot show: Transaction Search on in
 * the account and region, and `xray:PutTraceSegments`, which the X-Ray developer guide says the
 * endpoint is authorized as (xray/latest/devguide/xray-opentelemetry-bearer-token.html).
 */
const WHAT_TO_DO =
  "Check that CloudWatch Transaction Search is enabled in this account and region, and that the caller's role allows xray:PutTraceSegments.";

/**
 * An exporter to CloudWatch's OTLP traces endpoint, `https://xray.<region>.amazonaws.com/v1/traces`
 * (CloudWatch's "OTLP Endpoints" page), signed with SigV4 for the service `xray`, its body OTLP
 * protobuf. An endpoint named by `AWS_ENDPOINT_URL_XRAY` (or `AWS_ENDPOINT_URL`) replaces the
 * region's, as it does for the AWS SDK's X-Ray client.
 */
export async function cloudWatchTraceExporter({
  region,
  credentials,
  env = process.env,
}: CloudWatchTraceConfig): Promise<SpanExporter> {
  const base =
    env.AWS_ENDPOINT_URL_XRAY ||
    env.AWS_ENDPOINT_URL ||
    `https://xray.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`;
  // Loaded here, not with `@agentstep/runtime/otel`: only what exports to AWS pays for the signer.
  const [{ SigV4TraceExporter }, identity] = await Promise.all([
    import('./sigv4-trace-exporter.js'),
    credentials ??
      import('@aws-sdk/credential-provider-node').then(({ defaultProvider }) => defaultProvider()),
  ]);
  return new SigV4TraceExporter({
    url: `${base.replace(/\/+$/, '')}/v1/traces`,
    region,
    service: 'xray',
    credentials: identity,
    whatToDo: WHAT_TO_DO,
  });
}
