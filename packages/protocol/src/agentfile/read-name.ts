import type { AgentfileToken } from './agentfile-token.js';
import type { ParseState } from './parse-state.js';

/**
 * Reads a name (`what`, e.g. `a goal name`) after `after`; a keyword is no name. Records the syntax
 * error and returns undefined when the next token is not a name.
 */
export function readName(state: ParseState, what: string, after: string): AgentfileToken | undefined {
  const token = state.peek();
  if (token.kind === 'identifier') return state.next();
  return state.expected(
    `${what} after ${after}`,
    token,
    token.kind === 'keyword' ? '(keywords are not names)' : undefined,
  );
}
