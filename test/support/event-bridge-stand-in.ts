import { fillInputTemplate, valueAt } from '@agentstep/cdk/testing';
import type { TemplateResource } from './deployed-functions.js';
import { deployedValue } from './iam-coverage.js';

/** An entry of EventBridge's PutEvents, as the SDK sends it. */
export interface PutEntry {
  Source: string;
  DetailType: string;
  Detail: string;
}

/** What a rule's target is handed: the target's ARN and the input its transformer built. */
export interface Delivery {
  arn: string;
  input: unknown;
}

/** A rule of the template, as far as matching and delivering to its targets goes. */
interface RuleProperties {
  /** The pattern's fields this stand-in matches: the source, and the detail's top-level fields. */
  EventPattern?: { source?: string[]; detail?: Record<string, unknown[]> };
  Targets?: Array<{
    Arn: unknown;
    InputTransformer?: { InputPathsMap?: Record<string, string>; InputTemplate: string };
  }>;
}

/**
 * What EventBridge makes of an event put on the default bus: the event as targets see it (its
 * `id`), and each delivery to a target of the template's rules whose `source` pattern matches it,
 * its input built by the target's input transformer.
 */
export function deliveriesOf(
  entry: PutEntry,
  id: string,
  resources: Record<string, TemplateResource>,
): Delivery[] {
  const event = {
    version: '0',
    id,
    'detail-type': entry.DetailType,
    source: entry.Source,
    account: '123456789012',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail: JSON.parse(entry.Detail),
  };
  return Object.values(resources)
    .filter(({ Type }) => Type === 'AWS::Events::Rule')
    .map(({ Properties }) => Properties as RuleProperties)
    .filter(({ EventPattern = {} }) => matches(EventPattern, event))
    .flatMap(({ Targets = [] }) =>
      Targets.map(({ Arn, InputTransformer }) => ({
        arn: String(deployedValue(Arn, resources)),
        input:
          InputTransformer === undefined
            ? event
            : fillInputTemplate(InputTransformer.InputTemplate, (name) =>
                valueAt(event, InputTransformer.InputPathsMap?.[name] ?? ''),
              ),
      })),
    );
}

/** Whether an event matches a pattern's `source` and the detail's top-level fields it lists. */
function matches(
  { source, detail = {} }: NonNullable<RuleProperties['EventPattern']>,
  event: { source: string; detail: Record<string, unknown> },
): boolean {
  const detailMatches = Object.entries(detail).every(([field, values]) =>
    values.includes(event.detail[field]),
  );
  return (source === undefined || source.includes(event.source)) && detailMatches;
}

/**
 * CloudFormation's DescribeStacks answer (Query protocol, XML) when `asked` is `stack`, with its
 * outputs; else the ValidationError CloudFormation answers for a stack that does not exist.
 */
export function describeStacksXml(asked: string, stack: string, outputs: Record<string, string>): string {
  if (asked !== stack)
    throw Object.assign(new Error(`Stack with id ${asked} does not exist`), { name: 'ValidationError' });
  const members = Object.entries(outputs)
    .map(
      ([key, value]) =>
        `<member><OutputKey>${escapeXml(key)}</OutputKey><OutputValue>${escapeXml(value)}</OutputValue></member>`,
    )
    .join('');
  return `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>${stack}</StackName><StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/${stack}/1</StackId><CreationTime>2026-11-29T00:00:00Z</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></DescribeStacksResponse>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
