import { describe, expect, it } from 'vitest';
import { agentVersionInputs, type VersionedSettings } from './agent-version-inputs.js';

const settings: VersionedSettings = {
  model: 'scripted',
  modelProfiles: {},
  approvals: [],
  budget: {},
  limits: {},
  context: {},
  providers: [],
  mcpServers: { docs: { url: 'https://docs.example.com/mcp', headers: { 'X-Key': { secret: 'DOCS_KEY' } } } },
};

describe('agentVersionInputs', () => {
  it('counts MCP servers and remote A2A agents with their headers by name only, sorted', () => {
    const inputs = agentVersionInputs(
      {
        ...settings,
        a2aAgents: [
          {
            name: 'research',
            url: 'https://research.example.com',
            headers: { 'X-Team': 'core', Authorization: { secret: 'RESEARCH_TOKEN', prefix: 'Bearer ' } },
            timeoutMs: 5_000,
          },
        ],
      },
      [],
      'the definition',
    );
    expect(inputs.mcpServers).toEqual({ docs: { url: 'https://docs.example.com/mcp', headers: ['X-Key'] } });
    expect(inputs.a2aAgents).toEqual([
      {
        name: 'research',
        url: 'https://research.example.com',
        headers: ['Authorization', 'X-Team'],
        timeoutMs: 5_000,
      },
    ]);
    expect(JSON.stringify(inputs)).not.toMatch(/RESEARCH_TOKEN|core|Bearer/);
  });

  it('leaves remote agents out of the inputs of an agent without any: its version stays what it was', () => {
    const without = agentVersionInputs(settings, [], 'the definition');
    expect(agentVersionInputs({ ...settings, a2aAgents: [] }, [], 'the definition')).toEqual(without);
    expect(without).not.toHaveProperty('a2aAgents');
  });
});
