import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** Props of {@link EventLogTable}. */
export interface EventLogTableProps {
  /** @default RemovalPolicy.RETAIN - the log outlives the stack */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The DynamoDB table of every session's event log, call outcomes and large bodies
 * (docs/decisions/0005): partition key `pk` (session), sort key `sk`, on-demand, with
 * point-in-time recovery; items with an `expiresAt` (model steps' streamed text) expire by TTL.
 */
export class EventLogTable extends Construct {
  /** The table; grant access with its `grant*` methods. */
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: EventLogTableProps = {}) {
    super(scope, id);
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      // Model steps' streamed text (draft items) expires an hour on (docs/decisions/0025): the
      // runtime's DRAFT_EXPIRY_ATTRIBUTE, which the construct's test checks.
      timeToLiveAttribute: 'expiresAt',
    });
  }
}
