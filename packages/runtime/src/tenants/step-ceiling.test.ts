import type { PriceTable } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { inMemoryStores } from '../in-memory-stores.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { storedSession, tenantTag } from '../requests/stored-session.js';
import { modelStep } from '../steps/model-step.js';
import { startTurn } from '../steps/start-turn.js';
import { submitTurn } from '../steps/submit-turn.js';
import { demoTools } from '../tools/demo-tools.js';
import { createToolset } from '../tools/toolset.js';
import { type Ceiling, EVERY_TENANT } from './tenant-controls.js';

const clock = { now: () => Date.UTC(2026, 10, 29, 12) };
const USAGE = { inputTokens: 1_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 };
/** $0.003 a step as used; a reservation counts its input estimate and 1,024 output tokens. */
const prices = { scripted: { input: 2, output: 10 } };
const toolset = createToolset(demoTools);

/**
 * A model step of a new turn of `session` on in-memory stores, every step answering at once, each
 * tenant capped at `ceiling` when given: the step's output, and the stores.
 */
function tenantSteps(ceiling?: Ceiling, stepPrices: PriceTable = prices) {
  const stores = inMemoryStores();
  const model = new ScriptedModel(
    Array.from({ length: 50 }, () => ({ chunks: ['Done.<end>'], usage: USAGE })),
  );
  const tenantCeiling = ceiling === undefined ? {} : { tenantCeiling: ceiling };
  const deps = {
    ...stores,
    clock,
    model,
    prices: stepPrices,
    tools: toolset.descriptions,
    targetOf: () => 'tools',
    ceilings: { ...stores, ...tenantCeiling },
  };
  let turns = 0;
  const step = async (session: string) => {
    const turn = `t${++turns}`;
    await submitTurn({ session, turn, prompt: 'Hi' }, deps);
    return modelStep(await startTurn({ session, turn }, deps), deps);
  };
  return { step, stores, model };
}

describe('a tenant’s spend ceiling at the model step (decision 0043)', () => {
  it('reserves before the model is called, settles at the cost, and ends the turn limit once it does not fit', async () => {
    const { step, stores } = tenantSteps({ usdPerDay: 0.02 });
    const outcomes = [];
    for (let index = 0; index < 8; index++) outcomes.push(await step(storedSession('ann', `s${index}`)));
    const answered = outcomes.filter((outcome) => outcome.next === 'finish');
    const limited = outcomes.filter((outcome) => outcome.next === 'limit');
    // Settled at $0.003 each, a step fits while what is spent and its reservation (its input as
    // estimated, and 1,024 output tokens: over $0.01) stay within $0.02; then every step is refused.
    expect(answered.length).toBeGreaterThan(0);
    expect(outcomes.slice(0, answered.length)).toEqual(answered);
    expect(limited).toHaveLength(outcomes.length - answered.length);
    expect(limited[0]).toMatchObject({
      limit: expect.stringMatching(/^TenantCeilingReached: the tenant's ceiling of \$0\.02 a day is reached/),
    });
    const spent = await stores.tenantSpend.spent(tenantTag('ann'), 'micros', clock.now());
    expect(spent.day).toBe(answered.length * 3_000);
    expect(spent.day).toBeLessThanOrEqual(20_000);
  });

  it('caps no session of no tenant, and no tenant without a ceiling', async () => {
    const { step } = tenantSteps();
    expect(await step('plain')).toMatchObject({ next: 'finish' });
    expect(await step(storedSession('ann', 's'))).toMatchObject({ next: 'finish' });
  });

  it('holds a token ceiling for a model without a price, counting input + output as used', async () => {
    const { step, stores, model } = tenantSteps({ tokensPerDay: 5_000 }, {});
    const outcomes = [];
    for (let index = 0; index < 6; index++) outcomes.push(await step(storedSession('ann', `s${index}`)));
    const answered = outcomes.filter((outcome) => outcome.next === 'finish').length;
    // Each step used 1,100 tokens and reserved over 1,024 more than its input: three fit in 5,000.
    expect(answered).toBe(3);
    expect(model.calls).toHaveLength(answered);
    expect(outcomes[answered]).toMatchObject({
      next: 'limit',
      limit: expect.stringMatching(
        /^TenantCeilingReached: the tenant's ceiling of 5000 tokens a day is reached/,
      ),
    });
    const spent = await stores.tenantSpend.spent(tenantTag('ann'), 'tokens', clock.now());
    expect(spent).toMatchObject({ day: answered * 1_100, month: answered * 1_100, reached: { day: 5_000 } });
    expect((await stores.tenantSpend.spent(tenantTag('ann'), 'micros', clock.now())).day).toBe(0);
  });

  it('gives back what one unit reserved when the other refuses the step', async () => {
    const { step, stores } = tenantSteps({ usdPerDay: 1, tokensPerDay: 1_000 });
    expect(await step(storedSession('ann', 's'))).toMatchObject({
      next: 'limit',
      limit: expect.stringMatching(/ceiling of 1000 tokens a day/),
    });
    expect((await stores.tenantSpend.spent(tenantTag('ann'), 'micros', clock.now())).day).toBe(0);
  });

  it('stops a suspended tenant’s turn before its model is called, as a cancelled one', async () => {
    const { step, stores, model } = tenantSteps();
    await stores.tenantControls.suspend(tenantTag('mallory'), { since: 1 });
    expect(await step(storedSession('mallory', 's'))).toMatchObject({ next: 'cancelled' });
    expect(await step('of-no-tenant')).toMatchObject({ next: 'finish' });
    expect(model.calls).toHaveLength(1);
  });

  it('stops a turn of no tenant (a trigger’s) with the agent-wide switch', async () => {
    const { step, stores, model } = tenantSteps();
    await stores.tenantControls.suspend(EVERY_TENANT, { since: 1 });
    expect(await step('of-no-tenant')).toMatchObject({ next: 'cancelled' });
    expect(model.calls).toHaveLength(0);
  });
});
