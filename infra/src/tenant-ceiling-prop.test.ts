import { describe, expect, it } from 'vitest';
import { environmentOf, synthAgent } from './testing/synth-agent.js';

describe('the tenantCeiling prop (decision 0043)', () => {
  it('tells the functions that take model steps and the API, and no other', () => {
    const tenantCeiling = { usdPerDay: 5, usdPerMonth: 100, tokensPerDay: 2_000_000 };
    const { template, agent } = synthAgent({ tenantCeiling });
    const ceilingOf = (fn: Parameters<typeof environmentOf>[1]) =>
      environmentOf(template, fn).AGENTSTEP_TENANT_CEILING;
    for (const step of ['model-step', 'advance-turn'] as const)
      expect(JSON.parse(String(ceilingOf(agent.functions[step])))).toEqual(tenantCeiling);
    const api = agent.apiFunctions.api;
    if (api === undefined) throw new Error('the agent has no API function');
    expect(JSON.parse(String(ceilingOf(api)))).toEqual(tenantCeiling);
    expect(ceilingOf(agent.functions['finish-turn'])).toBeUndefined();
  });

  it('refuses a ceiling that is not a positive amount (tokens: whole) at synthesis, naming it', () => {
    expect(() => synthAgent({ tenantCeiling: { usdPerDay: -1 } })).toThrow(/tenantCeiling/);
    expect(() => synthAgent({ tenantCeiling: { tokensPerDay: 1.5 } })).toThrow(/tenantCeiling/);
  });
});
