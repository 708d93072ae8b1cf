import { describe, expect, it } from 'vitest';
import { describeToken } from './describe-token.js';
import { lexAgentfile } from './lex-agentfile.js';

describe('describeToken', () => {
  it.each<[string, string]>([
    ['GOAL', 'keyword GOAL'],
    ['critic', 'IDENTIFIER critic'],
    ['OUTPUTS', 'unknown keyword OUTPUTS'],
    ['goal', 'IDENTIFIER goal (keywords are upper-case: GOAL)'],
    ['"short"', 'STRING "short"'],
    ['"a string far longer than thirty characters"', 'STRING "a string far longer than thir…'],
    ['"""\ntwo\nlines"""', 'STRING """…'],
    ['5', 'NUMBER 5'],
    ['$max', 'VARIABLE $max'],
    ['->', '"->"'],
    [',', '","'],
    ['@', 'unexpected character "@"'],
  ])('names %j as %j', (source, expected) => {
    const [token] = lexAgentfile(source);
    expect(token && describeToken(token)).toBe(expected);
  });

  it.each<[string, number, string]>([
    ['FROM a.md', 1, 'PATH a.md'],
    ['x\n', 1, 'end of line'],
    ['x', 1, 'end of file'],
  ])('names the token %i of %j as %j', (source, index, expected) => {
    const token = lexAgentfile(source)[index];
    expect(token && describeToken(token)).toBe(expected);
  });
});
