import { DRAFT_EXPIRY_ATTRIBUTE } from '@agentstep/runtime/dynamo';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, it } from 'vitest';
import { EventLogTable } from './event-log-table.js';

describe('EventLogTable', () => {
  it("expires model steps' draft items by TTL on the attribute the runtime writes", () => {
    const stack = new Stack();
    new EventLogTable(stack, 'Events');
    Template.fromStack(stack).hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      TimeToLiveSpecification: { AttributeName: DRAFT_EXPIRY_ATTRIBUTE, Enabled: true },
    });
  });
});
