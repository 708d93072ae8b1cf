import type { AgentfileToken } from './agentfile-token.js';
import type { ParseState } from './parse-state.js';
import type { WorkflowWithin } from './workflow-spec.js';
import type { WorkflowSpecPath } from './workflow-spec-problems.js';

/**
 * Reads the limit after `WITHIN` in `subject`: a whole number > 0 or a `$variable`. A number out
 * of range is a problem at it (the statement still parses). Undefined after a syntax error.
 */
export function readWithin(
  state: ParseState,
  start: AgentfileToken,
  subject: string,
  path: WorkflowSpecPath,
): WorkflowWithin | undefined {
  const token = state.peek();
  const after = `${start.value} in ${subject}`;
  if (token.kind === 'variable') {
    state.place(path, state.next());
    return { variable: token.value };
  }
  if (token.kind !== 'number') {
    const hint = token.kind === 'identifier' ? `(a variable starts with $: $${token.value})` : undefined;
    return state.expected(`a whole number or $variable after ${after}`, token, hint);
  }
  state.place(path, state.next());
  const limit = Number(token.value);
  const range = limit < 1 ? 'greater than 0' : `up to ${Number.MAX_SAFE_INTEGER}`;
  if (limit < 1 || !Number.isSafeInteger(limit)) {
    state.report(token, `expected a whole number ${range} after ${after}, found NUMBER ${token.value}`);
  }
  return limit;
}
