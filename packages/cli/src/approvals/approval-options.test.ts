import { describe, expect, it } from 'vitest';
import { AGENTSTEP_URL, parseApprovalsOptions, parseApproveOptions } from './approval-options.js';

const served = 'http://127.0.0.1:3000';

describe('where approvals and approve find the session', () => {
  it('a served API at AGENTSTEP_URL when no --url is given, with --token as its bearer', () => {
    const env = { [AGENTSTEP_URL]: served };
    expect(parseApprovalsOptions(['s', '--token', 'alice'], env).desk).toEqual({
      kind: 'served',
      url: served,
      token: 'alice',
    });
    expect(parseApproveOptions(['s', 'a1'], env).desk).toEqual({ kind: 'served', url: served });
  });

  it('--url before AGENTSTEP_URL; without either, the local store and its tools', () => {
    const env = { [AGENTSTEP_URL]: 'http://127.0.0.1:4000' };
    expect(parseApprovalsOptions(['s', '--url', served], env).desk).toEqual({ kind: 'served', url: served });
    expect(parseApprovalsOptions(['s'], {}).desk).toEqual({ kind: 'local', mcpServers: {}, a2aAgents: [] });
    expect(parseApprovalsOptions(['s', '--agent', 'a.ts', '--json'], { [AGENTSTEP_URL]: '' }).desk).toEqual({
      kind: 'local',
      agentFile: 'a.ts',
      mcpServers: {},
      a2aAgents: [],
    });
    expect(parseApproveOptions(['s', 'a1', '--tools', 'demo,http'], {}).desk).toEqual({
      kind: 'local',
      toolsets: ['demo', 'http'],
      mcpServers: {},
      a2aAgents: [],
    });
  });

  it('takes the agent options of run, prompt and the others, each meaning what it does there', () => {
    const args = [
      '--agent',
      'a.ts',
      '--tools',
      'http',
      '--fetch-hosts',
      'a.example',
      '--mcp',
      'm=https://m.example/mcp',
      '--a2a',
      'r=https://r.example',
    ];
    const expected = {
      kind: 'local',
      agentFile: 'a.ts',
      toolsets: ['http'],
      fetchHosts: ['a.example'],
      mcpServers: { m: { url: 'https://m.example/mcp' } },
      a2aAgents: [{ name: 'r', url: 'https://r.example' }],
    };
    expect(parseApprovalsOptions(['s', ...args], {}).desk).toEqual(expected);
    expect(parseApproveOptions(['s', 'a1', ...args], {}).desk).toEqual(expected);
  });

  it('refuses an AGENTSTEP_URL that is not an http(s) address, naming it', () => {
    expect(() => parseApprovalsOptions(['s'], { [AGENTSTEP_URL]: 'localhost:3000' })).toThrow(
      'AGENTSTEP_URL must be the http(s) address `agentstep serve` prints, such as http://127.0.0.1:3000; received "localhost:3000".',
    );
  });

  it('refuses --token without a served API, and --tools with one', () => {
    expect(() => parseApprovalsOptions(['s', '--token', 'alice'], {})).toThrow(
      '--token goes with --url (or AGENTSTEP_URL): the local store needs none.',
    );
    expect(() => parseApproveOptions(['s', 'a1', '--tools', 'demo'], { [AGENTSTEP_URL]: served })).toThrow(
      '--tools is for the local store',
    );
    expect(() => parseApprovalsOptions(['s', '--agent', 'agent.ts'], { [AGENTSTEP_URL]: served })).toThrow(
      '--agent is for the local store',
    );
  });
});
