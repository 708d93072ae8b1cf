import { type AgentfileToken, STATEMENT_KEYWORDS } from './agentfile-token.js';
import type { ParseState } from './parse-state.js';

/** One optional or required part of a statement after its head (`-> f1, f2`, `USING a`, `WITHIN 3`). */
export interface Clause {
  /** The keywords (or `->`) that start it. */
  starts: string[];
  /** How messages name it: `"->"`, `USING`. */
  label: string;
  required?: boolean;
  /** What may continue it, offered by the message about the token after it (`","` after a list). */
  continuedBy?: string;
  /** Reads the rest of the clause after its first token; false after a syntax error. */
  read: (start: AgentfileToken) => boolean;
}

const ELSEWHERE: Record<string, string> = {
  '->': 'only AGENT, GOAL and CONVERGE declare output fields',
  USING: 'only GOAL, CONVERGE, RUN and LOOP take USING',
  WITHIN: 'only CONVERGE and LOOP take WITHIN',
  REQUIRES: 'only AGENT takes REQUIRES',
  DEFAULT: 'only INPUT takes DEFAULT',
  UNSUPERVISED: 'only AGENT, GOAL, CONVERGE and RUN take a supervision modifier',
  HUMAN: 'HUMAN comes right after SUPERVISED',
  FROM: 'FROM comes right after the name, in place of a string',
};

/**
 * Reads a statement's clauses in their fixed order, each at most once, up to the end of the
 * statement: the end of the line, or a keyword that starts the next statement. A token that fits
 * no clause left is an error listing what could come there. False after a syntax error.
 */
export function readClauses(state: ParseState, subject: string, clauses: Clause[]): boolean {
  let from = 0;
  let continuedBy: string | undefined;
  for (;;) {
    const token = state.peek();
    const found = nextClause(clauses, from, token);
    if (found >= 0) {
      const clause = clauses[found];
      state.next();
      if (!clause?.read(token)) return false;
      continuedBy = clause.continuedBy;
      from = found + 1;
      continue;
    }
    const open = openClauses(clauses, from);
    const complete = !open.some((clause) => clause.required);
    if (complete && endsStatement(state, token)) return true;
    const choices = [
      ...(continuedBy ? [continuedBy] : []),
      ...open.map((clause) => clause.label),
      ...(complete ? ['a new statement', 'end of line'] : []),
    ];
    state.expected(`${listed(choices)} after ${subject}`, token, hint(clauses, token));
    return false;
  }
}

/** The first clause from `from` that `token` starts, not skipping a required one; -1 if none. */
function nextClause(clauses: Clause[], from: number, token: AgentfileToken): number {
  for (let index = from; index < clauses.length; index += 1) {
    const clause = clauses[index];
    if (!clause) break;
    if (starts(clause, token)) return index;
    if (clause.required) break;
  }
  return -1;
}

/** The clauses that may come next: from `from` up to and including the first required one. */
function openClauses(clauses: Clause[], from: number): Clause[] {
  const rest = clauses.slice(from);
  const required = rest.findIndex((clause) => clause.required);
  return required < 0 ? rest : rest.slice(0, required + 1);
}

function starts(clause: Clause, token: AgentfileToken): boolean {
  return (token.kind === 'keyword' || token.kind === 'arrow') && clause.starts.includes(token.value);
}

function endsStatement(state: ParseState, token: AgentfileToken): boolean {
  return token.kind === 'newline' || token.kind === 'end' || state.isKeyword(token, ...STATEMENT_KEYWORDS);
}

function hint(clauses: Clause[], token: AgentfileToken): string | undefined {
  if (clauses.some((clause) => starts(clause, token))) {
    return `(the order is ${clauses.map((clause) => clause.label).join(', ')})`;
  }
  const elsewhere = token.kind === 'keyword' || token.kind === 'arrow' ? ELSEWHERE[token.value] : undefined;
  return elsewhere ? `(${elsewhere})` : undefined;
}

/** `a`, `a or b`, `a, b or c`. */
function listed(choices: string[]): string {
  if (choices.length <= 1) return choices.join('');
  return `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
}
