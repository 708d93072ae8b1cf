import type { AgentfileToken } from './agentfile-token.js';
import type { ParseState } from './parse-state.js';
import { readName } from './read-name.js';
import type { WorkflowSpecPath } from './workflow-spec-problems.js';

/**
 * Reads `name, name, …` (at least one) after `start` (`->` or `USING`) in `subject`, placing each
 * name at `path` + its index. Undefined after a syntax error (a missing name, a trailing comma).
 */
export function readNameList(
  state: ParseState,
  start: AgentfileToken,
  what: string,
  subject: string,
  path: WorkflowSpecPath,
): string[] | undefined {
  const names: string[] = [];
  let separator = start;
  for (;;) {
    const shown = separator.kind === 'keyword' ? separator.value : `"${separator.value}"`;
    const name = readName(state, what, `${shown} in ${subject}`);
    if (!name) return undefined;
    state.place([...path, names.length], name);
    names.push(name.value);
    if (state.peek().kind !== 'comma') return names;
    separator = state.next();
  }
}
