import { type AgentfileToken, STATEMENT_KEYWORDS } from './agentfile-token.js';
import type { ParseState } from './parse-state.js';
import { parseStatement } from './parse-statement.js';

const STATEMENTS = 'a statement (NAME, INPUT, AGENT, GOAL, CONVERGE, RUN, LOOP, or SUPERVISED first)';

/**
 * Reads every statement into the state. A syntax error ends its statement; reading goes on at the
 * next line that starts with a statement keyword, so one run reports one error per broken statement.
 */
export function parseStatements(state: ParseState): void {
  for (;;) {
    state.skipNewlines();
    const token = state.peek();
    if (token.kind === 'end') return;
    if (state.isKeyword(token, ...STATEMENT_KEYWORDS)) {
      state.next();
      const parsed = parseStatement(state, token);
      state.statements += 1;
      if (!parsed) state.recover();
      continue;
    }
    state.expected(STATEMENTS, token, hint(state, token));
    state.recover();
  }
}

function hint(state: ParseState, token: AgentfileToken): string | undefined {
  if (state.isKeyword(token, 'UNSUPERVISED')) {
    return '(UNSUPERVISED is a modifier, on the line of its AGENT, GOAL, CONVERGE or RUN)';
  }
  // A statement ends at its line's end (or the next statement), so a clause here continues nothing.
  const continuation = token.kind === 'keyword' || token.kind === 'arrow' || token.kind === 'comma';
  return continuation ? '(a statement ends at the end of its line)' : undefined;
}
