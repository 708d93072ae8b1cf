import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** Props of {@link EventLogTable}. */
export interface EventLogTableProps {
  /**
   * @default RemovalPolicy.RETAIN - the log outlives the stack, and a deploy that would replace the
   * table keeps the old one; deletion protection is on unless this is `DESTROY`
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The DynamoDB table of every session's event log, call outcomes and large bodies
 * (docs/decisions/0005): partition key `pk` (session), sort key `sk`, on-demand, with
 * point-in-time recovery and deletion protection; items with an `expiresAt` (model steps' streamed
 * text) expire by TTL. Its construct id, and so its logical id and name, never change
 * (`stateful-resources.released.json`): a new one would make CloudFormation replace the table.
 */
export class EventLogTable extends Construct {
  /** The table; grant access with its `grant*` methods. */
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: EventLogTableProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy,
      deletionProtection: removalPolicy !== RemovalPolicy.DESTROY,
      // Model steps' streamed text (draft items) expires an hour on (docs/decisions/0025): the
      // runtime's DRAFT_EXPIRY_ATTRIBUTE, which the construct's test checks.
      timeToLiveAttribute: 'expiresAt',
    });
  }
}
