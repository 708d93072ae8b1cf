import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_AGENT_VERSION,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { StepUsage } from '../usage/step-usage.js';
import type { LogSpan, SpanValue } from './log-span.js';
import { modelOf } from './model-of.js';
import { spanIdOf, traceIdOf } from './span-ids.js';
import { messages, ms } from './span-parts.js';
import { toolSpans } from './tool-spans.js';
import type { TurnLog } from './turn-logs.js';

/** What the spans of a turn say besides the log: the agent's name, and whether content goes in. */
export interface TurnSpanOptions {
  agent: string;
  /** Prompts, answers, arguments and results in the spans. @default false */
  captureContent?: boolean;
}

/**
 * A turn's spans (decision 0047): its `invoke_agent`, one `chat` per model request of the usage
 * ledger (a compaction's included) and one `execute_tool` per call, children of the turn's span;
 * approvals as events of their call's span, compactions of the turn's, a sub-agent's turn linked
 * from the call that ran it. Content only with `captureContent`.
 */
export function turnSpans(turn: TurnLog, options: TurnSpanOptions): LogSpan[] {
  const agent = agentSpan(turn, options);
  const under = { traceId: agent.traceId, parentSpanId: agent.spanId };
  return [
    agent,
    ...turn.entries.map((entry, index) => chatSpan(turn, { entry, index }, under, options)),
    ...toolSpans(turn, under, options),
  ];
}

/** The turn's own span: from its user message to its end, its status the turn's. */
function agentSpan(turn: TurnLog, { agent, captureContent }: TurnSpanOptions): LogSpan {
  const user = turn.events.find(({ event }) => event.type === 'user')?.event;
  const answer = turn.events.findLast(({ event }) => event.type === 'respond')?.event;
  const failed = turn.end.payload.status === 'failed';
  return {
    traceId: traceIdOf(turn.session, turn.turn),
    spanId: spanIdOf(turn.session, turn.turn, 'invoke_agent'),
    name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agent}`,
    kind: 'internal',
    startMs: ms((user ?? turn.start ?? turn.end).timestamp),
    endMs: ms(turn.end.timestamp),
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      [ATTR_GEN_AI_AGENT_NAME]: agent,
      ...(turn.start ? { [ATTR_GEN_AI_AGENT_VERSION]: turn.start.payload.version } : {}),
      [ATTR_GEN_AI_CONVERSATION_ID]: turn.session,
      ...usageOf(turn.entries),
      ...(captureContent && user?.type === 'user'
        ? { [ATTR_GEN_AI_INPUT_MESSAGES]: messages('user', user.content) }
        : {}),
      ...(captureContent && answer?.type === 'respond'
        ? { [ATTR_GEN_AI_OUTPUT_MESSAGES]: messages('assistant', answer.content) }
        : {}),
    },
    events: turn.events.flatMap(({ event }) =>
      event.type === 'compacted' ? [{ name: 'compaction', timeMs: ms(event.timestamp) }] : [],
    ),
    links: [],
    // The turn's message is for people and may quote a provider's: content, given only on request.
    status: failed
      ? {
          code: 'error',
          message: (captureContent ? turn.end.content : turn.end.payload.error) ?? 'the turn failed',
        }
      : { code: 'unset' },
  };
}

/** One model request: when it ran and what it used, from the ledger; why it stopped, from the log. */
function chatSpan(
  turn: TurnLog,
  { entry, index }: { entry: StepUsage; index: number },
  under: { traceId: string; parentSpanId: string },
  { captureContent }: TurnSpanOptions,
): LogSpan {
  const { provider, model } = modelOf(entry.model);
  const step = turn.events.filter(({ batch }) => batch === entry.batch);
  const compaction = entry.purpose === 'compaction';
  const calls = step.filter(({ event }) => event.type === 'call').length;
  const output = step.flatMap(({ event }) =>
    event.type === 'think' || event.type === 'respond' || event.type === 'call' ? [event.content] : [],
  );
  return {
    ...under,
    // A step may compact more than once (again after the provider refused the context): each its own.
    spanId: spanIdOf(
      turn.session,
      turn.turn,
      compaction ? `chat ${entry.batch} compaction ${index}` : `chat ${entry.batch}`,
    ),
    name: `${GEN_AI_OPERATION_NAME_VALUE_CHAT} ${model}`,
    kind: 'client',
    startMs: entry.at - entry.latencyMs,
    endMs: entry.at,
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
      [ATTR_GEN_AI_PROVIDER_NAME]: provider,
      [ATTR_GEN_AI_REQUEST_MODEL]: model,
      [ATTR_GEN_AI_RESPONSE_MODEL]: model,
      [ATTR_GEN_AI_CONVERSATION_ID]: turn.session,
      ...usageOf([entry]),
      ...(compaction ? {} : { [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [calls > 0 ? 'tool_call' : 'stop'] }),
      ...(captureContent && !compaction && output.length > 0
        ? { [ATTR_GEN_AI_OUTPUT_MESSAGES]: messages('assistant', output.join('\n')) }
        : {}),
    },
    events: [],
    links: [],
    status: { code: 'unset' },
  };
}

/** Tokens of ledger entries, as the GenAI usage attributes. */
function usageOf(entries: readonly StepUsage[]): Record<string, SpanValue> {
  const sum = (pick: (entry: StepUsage) => number) =>
    entries.reduce((total, entry) => total + pick(entry), 0);
  return {
    [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: sum(({ usage }) => usage.inputTokens),
    [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: sum(({ usage }) => usage.outputTokens),
    [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: sum(({ usage }) => usage.cacheReadTokens),
    [ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS]: sum(({ usage }) => usage.cacheWriteTokens),
  };
}
