import { setTimeout as sleep } from 'node:timers/promises';
import { type TurnResult, turnResultSchema } from '@agentstep/protocol';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import {
  DescribeExecutionCommand,
  type DescribeExecutionOutput,
  ListExecutionsCommand,
  SFNClient,
} from '@aws-sdk/client-sfn';

/** How often the smoke looks again for the execution an event started, and at its status. */
const POLL_MS = 1_000;

/** The event a smoke stack's rule turns into a turn, and the loop whose executions run it. */
export interface SmokeTrigger {
  region: string;
  /** The rule's event source (`SmokeEventSource`). */
  source: string;
  /** The loop's live alias (`LiveAliasArn`), through which the rule starts each turn. */
  live: string;
  message: string;
}

/**
 * Puts one event of `source` on the default bus, finds the execution its rule started (its input's
 * `requestId` is the event's id) among the loop's, and resolves with the turn's result once that
 * execution has ended (it waits for any executions the turn continued in).
 */
export async function triggeredTurn(trigger: SmokeTrigger, signal: AbortSignal): Promise<TurnResult> {
  const eventId = await putEvent(trigger);
  const sfn = new SFNClient({ region: trigger.region });
  try {
    const execution = await executionStartedBy(sfn, machineOf(trigger.live), eventId, signal);
    const ended = await endOf(sfn, execution, signal);
    if (ended.status !== 'SUCCEEDED')
      throw new Error(
        `execution ${execution} ended ${ended.status}: ${ended.error ?? ''} ${ended.cause ?? ''}`,
      );
    return turnResultSchema.parse(JSON.parse(ended.output ?? 'null'));
  } finally {
    sfn.destroy();
  }
}

async function putEvent({ region, source, message }: SmokeTrigger): Promise<string> {
  const client = new EventBridgeClient({ region });
  try {
    const entry = { Source: source, DetailType: 'AgentStep Smoke Test', Detail: JSON.stringify({ message }) };
    const { Entries, FailedEntryCount } = await client.send(new PutEventsCommand({ Entries: [entry] }));
    const [put] = Entries ?? [];
    if (FailedEntryCount || put?.EventId === undefined)
      throw new Error(`EventBridge refused the event: ${put?.ErrorCode} ${put?.ErrorMessage}`);
    return put.EventId;
  } finally {
    client.destroy();
  }
}

/** The state machine of an alias ARN (`…:stateMachine:NAME:live`): its executions are listed under it. */
function machineOf(aliasArn: string): string {
  return aliasArn.split(':').slice(0, 7).join(':');
}

/** Looks through the loop's executions, newest first, until one's input carries `requestId`. */
async function executionStartedBy(
  sfn: SFNClient,
  stateMachineArn: string,
  requestId: string,
  signal: AbortSignal,
): Promise<string> {
  const looked = new Set<string>();
  for (;;) {
    const { executions = [] } = await sfn.send(
      new ListExecutionsCommand({ stateMachineArn, maxResults: 20 }),
    );
    for (const { executionArn } of executions) {
      if (executionArn === undefined || looked.has(executionArn)) continue;
      looked.add(executionArn);
      const { input } = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (JSON.parse(input ?? '{}').requestId === requestId) return executionArn;
    }
    await sleep(POLL_MS, undefined, { signal });
  }
}

async function endOf(
  sfn: SFNClient,
  executionArn: string,
  signal: AbortSignal,
): Promise<DescribeExecutionOutput> {
  for (;;) {
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING') return described;
    await sleep(POLL_MS, undefined, { signal });
  }
}
