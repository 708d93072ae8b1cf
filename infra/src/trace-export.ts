import { ENV_NAMES, TRACES_TO_CLOUDWATCH } from '@agentstep/protocol';
import { Token } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { BundledLambda } from './bundled-lambda.js';
import { grantSessionReads } from './grant-table-access.js';
import { TurnEndedRule } from './turn-ended-rule.js';

/**
 * Where each turn's traces go when it ends (decision 0047): an OTLP/HTTP collector, or `'cloudwatch'`
 * for CloudWatch's OTLP traces endpoint in the stack's region, signed with SigV4.
 */
export type AgentTraces =
  | {
      /**
       * The collector's OTLP/HTTP address, as `OTEL_EXPORTER_OTLP_ENDPOINT` gives it (the function
       * adds `/v1/traces`): `https://`, or `http://` on localhost only (a collector running beside
       * the function as a Lambda extension). Checked at synthesis.
       */
      readonly otlpEndpoint: string;
      /**
       * A secret whose plain-text value is a JSON object of header name → value sent with every
       * export (an API key, an `authorization`), read once per cold start (granted read). @default - none
       */
      readonly headers?: ISecret;
      /** Prompts, answers, tool arguments and results in the spans. @default false */
      readonly captureContent?: boolean;
    }
  | typeof TRACES_TO_CLOUDWATCH;

/** Props of {@link TraceExport}. */
export interface TraceExportProps {
  readonly table: TableV2;
  readonly traces: AgentTraces;
  /** The agent's name in the spans (`gen_ai.agent.name`). */
  readonly agentName: string;
  /** The bus turns' ends are announced on. @default - the account's default event bus */
  readonly eventBus?: IEventBus;
}

/**
 * The deployed half of decision 0047: a function that each turn's end announced on the bus
 * triggers (a rule, never a step of the loop) reads the turn's session log and usage ledger (the
 * table's `GetItem` and `Query`, nothing more), derives its OpenTelemetry GenAI spans and exports
 * them where `traces` says.
 */
export class TraceExport extends Construct {
  readonly function: LambdaFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: TraceExportProps) {
    super(scope, id);
    const { traces } = props;
    const endpoint = traces === TRACES_TO_CLOUDWATCH ? traces : checkedEndpoint(traces);
    this.function = new BundledLambda(this, 'export-traces', {
      folder: 'export-traces',
      environment: {
        [ENV_NAMES.table]: props.table.tableName,
        [ENV_NAMES.tracesEndpoint]: endpoint,
        [ENV_NAMES.agentName]: props.agentName,
        ...(typeof traces === 'object' && traces.headers
          ? { [ENV_NAMES.tracesHeadersSecret]: traces.headers.secretArn }
          : {}),
        ...(typeof traces === 'object' && traces.captureContent
          ? { [ENV_NAMES.tracesCaptureContent]: 'true' }
          : {}),
      },
    }).function;
    grantSessionReads(props.table, this.function);
    if (typeof traces === 'object') traces.headers?.grantRead(this.function);
    else this.function.addToRolePolicy(cloudWatchOtlpTraces());
    this.rule = new TurnEndedRule(this, 'TurnEnds', {
      target: this.function,
      description: 'Exports the traces of each AgentStep turn when it ends.',
      ...(props.eventBus ? { eventBus: props.eventBus } : {}),
    }).rule;
  }
}

/**
 * What CloudWatch's OTLP traces endpoint (`https://xray.<region>.amazonaws.com/v1/traces`) is
 * authorized as: `xray:PutTraceSegments` (the X-Ray developer guide, "Setting up bearer token
 * authentication for traces", xray-opentelemetry-bearer-token.html), which has no resource types.
 */
function cloudWatchOtlpTraces(): PolicyStatement {
  return new PolicyStatement({ actions: ['xray:PutTraceSegments'], resources: ['*'] });
}

/** Hosts a collector may be reached over plain HTTP on: the function's own (a Lambda extension's). */
const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The collector's address, checked and without a trailing `/`; a token (known only at deploy) as it is. */
function checkedEndpoint(traces: Exclude<AgentTraces, string>): string {
  const given: unknown = traces?.otlpEndpoint;
  if (typeof given !== 'string')
    throw new Error(
      `AgentStep prop traces must be 'cloudwatch' or { otlpEndpoint, headers?, captureContent? }, received ${JSON.stringify(traces)}.`,
    );
  if (Token.isUnresolved(given)) return given;
  const what = `AgentStep prop traces.otlpEndpoint, received "${given}"`;
  let url: URL;
  try {
    url = new URL(given);
  } catch (error) {
    throw new Error(
      `${what}, is no URL: give the collector's OTLP/HTTP address, e.g. https://otlp.example.com.`,
      {
        cause: error,
      },
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
    throw new Error(
      `${what}, must be https:// (http:// only on localhost, for a collector running beside the function as a Lambda extension).`,
    );
  if (url.username || url.password)
    throw new Error(
      `${what}, holds credentials, which the function's environment would show: put them in the headers secret.`,
    );
  const endpoint = given.replace(/\/+$/, '');
  if (endpoint.endsWith('/v1/traces'))
    throw new Error(
      `${what}, names the traces path itself: give the collector's address without /v1/traces, as OTEL_EXPORTER_OTLP_ENDPOINT does; the function adds it.`,
    );
  return endpoint;
}
