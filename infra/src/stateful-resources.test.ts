import { readFileSync } from 'node:fs';
import { Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { describe, expect, it } from 'vitest';
import { EventLogTable } from './event-log-table.js';
import { lostResources, type StatefulResource, statefulResources } from './testing/stateful-resources.js';
import { newAgent, synthAgent, testApp } from './testing/synth-agent.js';

/**
 * The stateful resources of the last release: the event-log table, the workspace and console
 * buckets, the triggers' dead-letter queue. A change that would delete or replace one of them (a
 * construct renamed or moved, a key changed) fails here: CloudFormation would replace the table and
 * every session with it. Change this file only with a migration path in docs/decisions.
 */
const RELEASED = 'stateful-resources.released.json';

/** An agent with every stateful resource the construct makes: a workspace, the console, a trigger. */
function everyStatefulResource(): Record<string, StatefulResource> {
  const { stack, agent } = newAgent({
    builtInTools: ['demo', 'workspace'],
    api: { auth: { jwt: { issuer: 'https://issuer.example.com', audience: 'agentstep' } }, console: true },
  });
  agent.runOnSchedule(Schedule.rate(Duration.hours(1)), { message: 'Hourly.' });
  return statefulResources(Template.fromStack(stack).toJSON());
}

describe('stateful resources across releases', () => {
  const current = everyStatefulResource();

  it('keeps every stateful resource of the last release: none deleted, none replaced', () => {
    const released = JSON.parse(readFileSync(new URL(RELEASED, import.meta.url), 'utf8'));
    expect(lostResources(released, current)).toEqual([]);
    // New stateful resources are added to the file as they are released.
    expect(Object.keys(current).sort()).toEqual(Object.keys(released).sort());
  });

  it('retains them all on deletion and replacement, the table with deletion protection and point-in-time recovery', () => {
    for (const resource of Object.values(current))
      expect(resource).toMatchObject({ deletionPolicy: 'Retain', updateReplacePolicy: 'Retain' });
    const { template } = synthAgent({});
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [
        Match.objectLike({
          DeletionProtectionEnabled: true,
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        }),
      ],
    });
  });

  it('tells a renamed table apart: its logical id changes, so the deploy would replace it', () => {
    const renamed = (id: string) => {
      const stack = new Stack(testApp(), 'Test');
      new EventLogTable(stack, id);
      return statefulResources(Template.fromStack(stack).toJSON());
    };
    const lost = lostResources(renamed('EventLog'), renamed('Sessions'));
    expect(lost).toEqual([
      expect.stringMatching(/^EventLogTable\w+ \(AWS::DynamoDB::GlobalTable\) would be deleted/),
    ]);
  });
});
