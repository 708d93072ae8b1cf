import type { CallEvent, ResultEvent } from './timeline-entries.js';

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
