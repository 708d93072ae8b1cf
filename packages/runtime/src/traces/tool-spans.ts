import { approvalId, type ToolOutcome, type WireEventOf } from '@agentstep/protocol';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '@opentelemetry/semantic-conventions/incubating';
import * as z from 'zod';
import { SPAWN_AGENT, SPAWN_AGENTS } from '../agents/agent-tools.js';
import { subAgentIds } from '../agents/sub-agent-ids.js';
import { subAgentTaskSchema } from '../agents/sub-agent-task.js';
import type { LogSpan, LogSpanEvent, LogSpanLink } from './log-span.js';
import { spanIdOf, traceIdOf } from './span-ids.js';
import { contentText, ms } from './span-parts.js';
import { type BatchCall, type TurnBatch, turnBatches } from './turn-batches.js';
import type { TurnLog } from './turn-logs.js';
import type { TurnSpanOptions } from './turn-spans.js';

/** The `execute_tool` spans of a turn's calls, batch by batch, each a child of `under`. */
export function toolSpans(
  turn: TurnLog,
  under: { traceId: string; parentSpanId: string },
  options: TurnSpanOptions,
): LogSpan[] {
  return turnBatches(turn.events).flatMap((batch) =>
    batch.calls.map((call) => toolSpan(turn, batch, call, options, under)),
  );
}

/**
 * One call. It ends when its batch's result is logged, having run what the result says; a call that
 * waited for a person starts when it was logged, so its approvals fall inside it; one with no known
 * duration runs from its last decision (or its logging) to its batch's end (or the turn's, when the
 * turn ended first, as an error). A call of sub-agents links to their turns.
 */
function toolSpan(
  turn: TurnLog,
  batch: TurnBatch,
  call: BatchCall,
  { captureContent }: TurnSpanOptions,
  under: { traceId: string; parentSpanId: string },
): LogSpan {
  const { position, element } = call;
  const name = element.ok ? element.call.name : 'unknown';
  const args = element.ok ? element.call.args : undefined;
  const outcome = batch.outcomes[position];
  const approvals = batch.approvals.filter(
    ({ position: at, event }) => (at ?? event.payload.index) === position,
  );
  const { startMs, endMs } = timingOf(turn, batch, { call, approvals });
  return {
    ...under,
    spanId: spanIdOf(turn.session, turn.turn, `execute_tool ${batch.id}.${position}`),
    name: `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${name}`,
    kind: 'internal',
    startMs,
    endMs,
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: name,
      [ATTR_GEN_AI_TOOL_CALL_ID]: approvalId(batch.id, position),
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_GEN_AI_CONVERSATION_ID]: turn.session,
      ...(captureContent ? { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: JSON.stringify(args ?? {}) } : {}),
      ...(captureContent && outcome ? { [ATTR_GEN_AI_TOOL_CALL_RESULT]: contentText(outcome.content) } : {}),
    },
    events: approvals.map(({ event }) => approvalEvent(event)),
    links: subAgentLinks(turn.session, { name, args, batch: batch.id, position }),
    status: statusOf(batch.result === undefined ? undefined : outcome, captureContent),
  };
}

/** When a call ran, in milliseconds since the epoch (see {@link toolSpan}). */
function timingOf(
  turn: TurnLog,
  batch: TurnBatch,
  { call, approvals }: { call: BatchCall; approvals: TurnBatch['approvals'] },
): { startMs: number; endMs: number } {
  const { position } = call;
  const endMs = ms((batch.result ?? turn.end).timestamp);
  const logged = ms(call.stored.event.timestamp);
  const duration = batch.result?.payload.durations_ms?.[position] ?? undefined;
  if (approvals.length > 0 || duration === undefined) {
    const decided = approvals.findLast(({ event }) => event.payload.status !== 'requested');
    const from = approvals.length > 0 ? logged : decided ? ms(decided.event.timestamp) : logged;
    return { startMs: Math.min(from, endMs), endMs };
  }
  return { startMs: Math.max(logged, endMs - duration), endMs };
}

/** A failed call's span is an error; what it failed with only when content is captured. */
function statusOf(outcome: ToolOutcome | undefined, captureContent: boolean | undefined): LogSpan['status'] {
  if (outcome === undefined)
    return { code: 'error', message: 'the call has no result: its turn ended first' };
  if (outcome.status === 'success') return { code: 'unset' };
  return { code: 'error', message: captureContent ? outcome.content : 'the call failed' };
}

function approvalEvent({ timestamp, payload }: WireEventOf<'approval'>): LogSpanEvent {
  return { name: `approval ${payload.status}`, timeMs: ms(timestamp) };
}

const spawnAgentsSchema = z.object({ agents: z.array(subAgentTaskSchema) });

/** The `invoke_agent` spans of the sub-agents a call ran (valid arguments only), in their own turns' traces. */
function subAgentLinks(
  session: string,
  { name, args, batch, position }: { name: string; args: unknown; batch: string; position: number },
): LogSpanLink[] {
  const count =
    name === SPAWN_AGENT
      ? Number(subAgentTaskSchema.safeParse(args).success)
      : name === SPAWN_AGENTS
        ? (spawnAgentsSchema.safeParse(args).data?.agents.length ?? 0)
        : 0;
  return Array.from({ length: count }, (_, index) => {
    const child = subAgentIds({ session, batch, position }, index);
    return {
      traceId: traceIdOf(child.session, child.turn),
      spanId: spanIdOf(child.session, child.turn, 'invoke_agent'),
    };
  });
}
