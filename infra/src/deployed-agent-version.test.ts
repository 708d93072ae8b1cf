import { describe, expect, it } from 'vitest';
import { environmentOf, synthAgent } from './testing/synth-agent.js';

/** The version an agent with `props` deploys, and what its StartTurn function is told. */
function deployed(props: Parameters<typeof synthAgent>[0] = {}) {
  const { template, agent } = synthAgent(props);
  return {
    version: agent.version,
    told: environmentOf(template, agent.functions['start-turn']).AGENTSTEP_AGENT_VERSION,
  };
}

describe('the deployed agent version (decision 0040)', () => {
  it('tells StartTurn the version, which each turn records in its turn_start', () => {
    const { version, told } = deployed({ instructions: 'Be brief.' });
    expect(version).toMatch(/^[0-9a-f]{12}$/);
    expect(told).toBe(version);
  });

  it('is the same for the same app, and another when what decides the behaviour changes', () => {
    const base = deployed({ instructions: 'Be brief.' }).version;
    expect(deployed({ instructions: 'Be brief.' }).version).toBe(base);
    const others = [
      deployed({ instructions: 'Be thorough.' }).version,
      deployed({ instructions: 'Be brief.', maxSteps: 7 }).version,
      deployed({ instructions: 'Be brief.', builtInTools: ['demo', 'http'] }).version,
    ];
    expect(new Set([base, ...others]).size).toBe(4);
  });
});
