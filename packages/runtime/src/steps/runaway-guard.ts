import { DEFAULT_RUNAWAY_LIMITS, type LoopState, type StoredEvent, storedCall } from '@agentstep/protocol';
import { batchId, turnOfBatch } from './batch-id.js';
import { canonicalJson } from './canonical-json.js';

/** Longest arguments a `RepeatedCall` message quotes, in characters. */
const QUOTED_ARGS = 200;

/**
 * Why the turn must stop before its next model step, if it ran away (decision 0030): a call of one
 * tool with the same arguments made `repeatedCalls` times (`RepeatedCall`), or `stepsWithoutProgress`
 * model steps in a row without a successful call (`NoProgress`). Decided from the session's `log`
 * alone, so a redelivered step decides the same.
 */
export function runawayGuard(state: LoopState, log: readonly StoredEvent[]): string | undefined {
  return repeatedCall(state, log) ?? noProgress(state, log);
}

/** `RepeatedCall`: the turn's most repeated call, when it was made `repeatedCalls` times. */
function repeatedCall(state: LoopState, log: readonly StoredEvent[]): string | undefined {
  const limit = state.repeatedCalls ?? DEFAULT_RUNAWAY_LIMITS.repeatedCalls;
  const counts = new Map<string, { name: string; args: string; count: number }>();
  for (const stored of log) {
    if (stored.event.type !== 'call' || stored.batch === undefined) continue;
    if (turnOfBatch(stored.batch) !== state.turn) continue;
    const call = parsedCall(stored.event.content);
    if (call === undefined) continue;
    const key = `${call.name}\u0000${call.args}`;
    const seen = counts.get(key) ?? { ...call, count: 0 };
    counts.set(key, { ...seen, count: seen.count + 1 });
  }
  const top = [...counts.values()].reduce<{ name: string; args: string; count: number } | undefined>(
    (best, call) => (best === undefined || call.count > best.count ? call : best),
    undefined,
  );
  if (top === undefined || top.count < limit) return undefined;
  const args = top.args.length > QUOTED_ARGS ? `${top.args.slice(0, QUOTED_ARGS)}…` : top.args;
  return `RepeatedCall: ${top.name} was called ${top.count} times with the same arguments ${args}. The turn stopped before its next model step, as the model seems to be going round in circles. Send another message to continue (say what to do differently), or raise the agent's limits.repeatedCalls.`;
}

/** `NoProgress`: the turn's last `stepsWithoutProgress` model steps had no successful call. */
function noProgress(state: LoopState, log: readonly StoredEvent[]): string | undefined {
  const limit = state.stepsWithoutProgress ?? DEFAULT_RUNAWAY_LIMITS.stepsWithoutProgress;
  if (state.turnSteps < limit) return undefined;
  const progressed = new Set<string>();
  for (const { event, batch } of log) {
    if (event.type === 'result' && batch !== undefined && event.payload.success_count > 0)
      progressed.add(batch);
  }
  for (let step = state.turnSteps; step > state.turnSteps - limit; step--) {
    if (progressed.has(batchId(state.turn, step))) return undefined;
  }
  return `NoProgress: the turn took ${limit} model steps in a row without a successful call. The turn stopped before its next model step. Send another message to continue (a hint may help), or raise the agent's limits.stepsWithoutProgress.`;
}

/** A call's tool and its arguments as canonical JSON; `undefined` when the model wrote no usable call. */
function parsedCall(content: string): { name: string; args: string } | undefined {
  const element = storedCall(content, 0);
  if (element.ok) return { name: element.call.name, args: canonicalJson(element.call.args) };
  // A repeated element that is not a valid call still counts, by the name and args it has.
  const { name, args } = (element.element ?? {}) as { name?: unknown; args?: unknown };
  return typeof name === 'string' ? { name, args: canonicalJson(args ?? {}) } : undefined;
}
