import type { CallEvent, ResultEvent } from './timeline-entries.js';

/** A call's tool and arguments, from the JSON text the model wrote (shown as it is when it is not JSON). */
export function callParts(call: CallEvent): { name: string; args: unknown } {
  try {
    const { name, args } = JSON.parse(call.content) as { name?: unknown; args?: unknown };
    return { name: typeof name === 'string' ? name : '(no name)', args };
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
