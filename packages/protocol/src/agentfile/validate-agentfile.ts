import type { AgentfileProblem } from './format-agentfile-problem.js';
import type { ParseState } from './parse-state.js';
import { workflowSpecProblems } from './workflow-spec-problems.js';

/**
 * The problems of a syntactically clean Agentfile: NAME missing (at 1:1) or repeated, then every
 * cross-reference problem of its spec at the line and column of the offending token.
 */
export function validateAgentfile(state: ParseState): AgentfileProblem[] {
  const [first, ...others] = state.names;
  const names: AgentfileProblem[] = first
    ? others.map((name) => ({
        line: name.line,
        column: name.column,
        message: `expected one NAME, found a second (the workflow is already named ${first.value} at ${first.line}:${first.column})`,
      }))
    : [{ line: 1, column: 1, message: 'expected a NAME statement (NAME <name>), found none' }];
  const spec = { name: first?.value ?? '', ...state.spec };
  const locate = state.locate.bind(state);
  const references = workflowSpecProblems(spec, locate).map((problem) => ({
    ...(locate(problem.path) ?? { line: 1, column: 1 }),
    message: problem.message,
  }));
  return [...names, ...references];
}
