import type { AgentfileProblem } from './format-agentfile-problem.js';
import { lexAgentfile } from './lex-agentfile.js';
import { ParseState, type ReadAgentfileFile } from './parse-state.js';
import { parseStatements } from './parse-statements.js';
import { validateAgentfile } from './validate-agentfile.js';
import { type WorkflowSpec, workflowSpecSchema } from './workflow-spec.js';

/** How {@link parseAgentfile} reads `FROM` files. */
export interface ParseAgentfileOptions {
  /**
   * Returns the text of a `FROM` path, resolved by the caller relative to the Agentfile's folder;
   * throws when it cannot. Without it, every `FROM` is a problem.
   */
  readFile?: ReadAgentfileFile;
}

/** A parsed Agentfile: its checked spec, or every problem found, in source order. */
export type ParsedAgentfile = { ok: true; spec: WorkflowSpec } | { ok: false; errors: AgentfileProblem[] };

/**
 * Parses an Agentfile into a checked {@link WorkflowSpec}. Never throws: a mistake is a problem at
 * its line and column saying what was expected and what was found. Each statement reports at most
 * its first syntax error; validation (names, USING kinds, WITHIN variables, supervision) runs when
 * the syntax is clean.
 */
export function parseAgentfile(text: string, options: ParseAgentfileOptions = {}): ParsedAgentfile {
  if (typeof text !== 'string') {
    return {
      ok: false,
      errors: [{ line: 1, column: 1, message: `expected the Agentfile's text, found ${typeof text}` }],
    };
  }
  const state = new ParseState(lexAgentfile(text), options.readFile);
  parseStatements(state);
  if (state.syntaxClean) state.problems.push(...validateAgentfile(state));
  if (state.problems.length > 0) return { ok: false, errors: inSourceOrder(state.problems) };
  // The parser builds only valid specs; the schema is the owner of the rules, so it has the last word.
  const parsed = workflowSpecSchema.safeParse({ name: state.names[0]?.value, ...state.spec });
  if (parsed.success) return { ok: true, spec: parsed.data };
  const errors = parsed.error.issues.map((issue) => ({
    ...(state.locate(issue.path.filter((key) => typeof key !== 'symbol')) ?? { line: 1, column: 1 }),
    message: issue.message,
  }));
  return { ok: false, errors: inSourceOrder(errors) };
}

function inSourceOrder(problems: AgentfileProblem[]): AgentfileProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
}
