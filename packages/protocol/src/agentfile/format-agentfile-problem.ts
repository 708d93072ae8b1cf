/** A mistake in an Agentfile, at the 1-based line and column of the offending token. */
export interface AgentfileProblem {
  line: number;
  column: number;
  message: string;
}

/** A problem as compilers print one: `file:line:column: message` (`line:column: message` without a file). */
export function formatAgentfileProblem(problem: AgentfileProblem, file?: string): string {
  const place = `${problem.line}:${problem.column}`;
  return `${file === undefined ? place : `${file}:${place}`}: ${problem.message}`;
}
