import type { BatchEntry, CallEvent, ResultEvent } from './timeline-entries.js';

/** How an MCP server's tool is named to the model: `SERVER__TOOL`. */
const MCP_TOOL_NAME = /^([A-Za-z0-9_-]{1,32}?)__(.+)$/;

/** A call as the timeline shows it: its tool, its arguments, and the MCP server of an MCP tool. */
export interface CallParts {
  name: string;
  args: unknown;
  /** The MCP server whose tool it calls (`SERVER__TOOL`), if it is one. */
  server?: string;
}

/** A call's tool and arguments, from the JSON text the model wrote (shown as it is when it is not JSON). */
export function callParts(call: CallEvent): CallParts {
  try {
    const { name, args } = JSON.parse(call.content) as { name?: unknown; args?: unknown };
    if (typeof name !== 'string') return { name: '(no name)', args };
    const server = MCP_TOOL_NAME.exec(name)?.[1];
    return server === undefined ? { name, args } : { name, args, server };
  } catch {
    return { name: '(not JSON)', args: call.content };
  }
}

/** One call's outcome in a batch's result. */
export interface CallOutcome {
  tool: string;
  status: string;
  content: unknown;
}

/** How a call finished: its outcome, and how long it ran (ms) when that is known. */
export interface FinishedCall {
  outcome: CallOutcome;
  ms: number | undefined;
}

/**
 * How each call of a batch finished, in call order: as the batch's result says once it is logged;
 * before, as the outcome the stream sent of a call that finished while others ran or waited;
 * `undefined` for a call that is still running or waiting.
 */
export function finishedCalls(batch: BatchEntry): Array<FinishedCall | undefined> {
  const logged = callOutcomes(batch.result);
  const durations = batch.result?.payload.durations_ms ?? [];
  return batch.calls.map((_, index) => {
    const outcome = logged[index];
    if (outcome !== undefined) return { outcome, ms: durations[index] ?? undefined };
    const early = batch.outcomes.find(({ position }) => position === index);
    return (
      early && { outcome: { tool: early.tool, status: early.status, content: early.content }, ms: early.ms }
    );
  });
}

/** A batch's outcomes in call order, from the result's JSON text; none when it cannot be read. */
export function callOutcomes(result: ResultEvent | undefined): CallOutcome[] {
  if (result === undefined) return [];
  try {
    const outcomes: unknown = JSON.parse(result.content);
    return Array.isArray(outcomes) ? (outcomes as CallOutcome[]) : [];
  } catch {
    return [];
  }
}
