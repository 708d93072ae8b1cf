import { describe, expect, it } from 'vitest';
import { formatAgentfileProblem } from './format-agentfile-problem.js';

describe('formatAgentfileProblem', () => {
  const problem = {
    line: 3,
    column: 14,
    message: 'expected a string or FROM after AGENT critic, found NUMBER 5',
  };

  it.each<[string | undefined, string]>([
    [
      'workflows/essay/Agentfile',
      'workflows/essay/Agentfile:3:14: expected a string or FROM after AGENT critic, found NUMBER 5',
    ],
    [undefined, '3:14: expected a string or FROM after AGENT critic, found NUMBER 5'],
  ])('prints a problem of the file %j as a compiler does', (file, expected) => {
    expect(formatAgentfileProblem(problem, file)).toBe(expected);
  });
});
