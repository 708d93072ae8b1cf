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
  /** The stack whose rule the event is for: its `detail.stack`. */
  stack: string;
  /** The rule's event source (`SmokeEventSource`). */
  source: string;
  /** The loop's live alias (`LiveAliasArn`), through which the rule starts each turn. */
  live: string;
  message: string;
}

/**
 * Puts one event of `source` naming the stack on the default bus, finds the execution its rule
 * started (its input's `requestId` is the event's id) among the live alias's, and resolves with the
 * turn's result once that execution has ended (it waits for any executions the turn continued in).
 */
export async function triggeredTurn(trigger: SmokeTrigger, signal: AbortSignal): Promise<TurnResult> {
  const eventId = await putEvent(trigger, signal);
  const sfn = new SFNClient({ region: trigger.region });
  try {
    const execution = await executionStartedBy(sfn, trigger.live, eventId, signal).catch((error: unknown) => {
      if (!signal.aborted) throw error;
      throw new Error(
        `no execution of ${trigger.live} started for event ${eventId} in time (--timeout): see the rule's dead-letter queue`,
        { cause: error },
      );
    });
    const ended = await endOf(sfn, execution, signal);
    if (ended.status !== 'SUCCEEDED')
      throw new Error(
        `execution ${execution} ended ${ended.status}${[ended.error, ended.cause]
          .filter(Boolean)
          .map((part) => `: ${part}`)
          .join('')}`,
      );
    return resultOf(ended);
  } finally {
    sfn.destroy();
  }
}

async function putEvent(
  { region, stack, source, message }: SmokeTrigger,
  signal: AbortSignal,
): Promise<string> {
  const client = new EventBridgeClient({ region });
  try {
    const entry = {
      Source: source,
      DetailType: 'AgentStep Smoke Test',
      Detail: JSON.stringify({ stack, message }),
    };
    const { Entries, FailedEntryCount } = await client.send(new PutEventsCommand({ Entries: [entry] }), {
      abortSignal: signal,
    });
    const [put] = Entries ?? [];
    if (FailedEntryCount || put?.EventId === undefined)
      throw new Error(`EventBridge refused the event: ${put?.ErrorCode} ${put?.ErrorMessage}`);
    return put.EventId;
  } finally {
    client.destroy();
  }
}

/** Looks through the alias's executions, newest first, until one's input carries `requestId`. */
async function executionStartedBy(
  sfn: SFNClient,
  stateMachineArn: string,
  requestId: string,
  signal: AbortSignal,
): Promise<string> {
  const looked = new Set<string>();
  for (;;) {
    const listed = await sfn.send(new ListExecutionsCommand({ stateMachineArn, maxResults: 20 }), {
      abortSignal: signal,
    });
    for (const { executionArn } of listed.executions ?? []) {
      if (executionArn === undefined || looked.has(executionArn)) continue;
      looked.add(executionArn);
      const { input } = await sfn.send(new DescribeExecutionCommand({ executionArn }), {
        abortSignal: signal,
      });
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
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }), { abortSignal: signal });
    if (described.status !== 'RUNNING') return described;
    await sleep(POLL_MS, undefined, { signal });
  }
}

/** The turn's result, the execution's output; an error naming the execution when it is not one. */
function resultOf({ executionArn, output }: DescribeExecutionOutput): TurnResult {
  try {
    return turnResultSchema.parse(JSON.parse(output ?? 'null'));
  } catch (error) {
    throw new Error(`execution ${executionArn} ended with no turn's result as its output: ${output}`, {
      cause: error,
    });
  }
}
