import type { Tool } from '@agentstep/runtime';
import type { RecordedCall } from './eval-case.js';

/** What a replayed call of a tool with no recorded outcome fails with. */
export const NOT_RECORDED = 'not recorded';

/** JSON with every object's keys sorted: the same arguments written in any order are one call. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** A candidate's tools that run nothing: each call is answered from a case's recorded calls. */
export interface ReplayToolset {
  tools: Tool[];
  /** How many calls the recording had no outcome for. */
  notRecorded(): number;
}

/**
 * The candidate's tools, each with its name, description and schema, whose handler never runs:
 * a call of a tool with the same arguments as a recorded one gets that call's outcome (each
 * recorded call once, in order), any other fails `not recorded`. No call waits for approval.
 */
export function replayToolset(tools: readonly Tool[], recorded: readonly RecordedCall[]): ReplayToolset {
  const waiting = new Map<string, RecordedCall[]>();
  for (const call of recorded) {
    const key = `${call.tool}\n${canonicalJson(call.args ?? {})}`;
    waiting.set(key, [...(waiting.get(key) ?? []), call]);
  }
  let missed = 0;
  const answer = (tool: string, args: unknown) => {
    const call = waiting.get(`${tool}\n${canonicalJson(args ?? {})}`)?.shift();
    if (call === undefined) {
      missed += 1;
      throw new Error(`${NOT_RECORDED}: the recording has no call of ${tool} with these arguments`);
    }
    if (call.status === 'failure') throw new Error(String(call.content));
    return call.content;
  };
  return {
    tools: tools.map((tool) => ({ ...tool, approval: false, handler: (args) => answer(tool.name, args) })),
    notRecorded: () => missed,
  };
}
