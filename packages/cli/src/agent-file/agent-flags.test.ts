import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error.js';
import { AGENT_OPTIONS_USAGE, agentFlagsOf } from './agent-flags.js';

const values = (a2a: string[]) => ({ mcp: [], a2a });

describe('agentFlagsOf', () => {
  it('takes every --a2a NAME=URL, repeated; a later one of the same name replaces the earlier', () => {
    const flags = agentFlagsOf(
      values([
        'research=https://research.example.com',
        'billing=http://127.0.0.1:3001/',
        'research=https://research.example.com/v2?team=a=b',
      ]),
    );
    expect(flags.a2aAgents).toEqual([
      { name: 'research', url: 'https://research.example.com/v2?team=a=b' },
      { name: 'billing', url: 'http://127.0.0.1:3001/' },
    ]);
    expect(agentFlagsOf(values([])).a2aAgents).toEqual([]);
  });

  it.each([
    ['research', 'Invalid input: expected string, received undefined'],
    ['=https://research.example.com', 'a remote agent name is 1–32 letters'],
    ['1st=https://research.example.com', 'a remote agent name is 1–32 letters'],
    ['research=ftp://research.example.com', "a remote agent's url is http(s)://…"],
  ])('refuses --a2a %s, saying what it takes', (pair, why) => {
    const parse = () => agentFlagsOf(values([pair]));
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow(
      `--a2a takes NAME=URL (NAME: 1–32 letters, digits, "_" or "-", starting with a letter or "_"; URL: http(s)://…, where the agent's card is read), e.g. --a2a research=https://research.example.com; received "${pair}" (`,
    );
    expect(parse).toThrow(why);
  });

  it('says what --a2a does in the agent options’ help', () => {
    expect(AGENT_OPTIONS_USAGE).toContain(
      '--a2a NAME=URL             a remote A2A agent as the tool NAME__send',
    );
  });
});
