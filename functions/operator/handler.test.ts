import {
  type ExecutionStarter,
  inMemoryStores,
  storedSession,
  submitTurn,
  type TenantReport,
  tenantTag,
} from '@agentstep/runtime';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createHandler } from './handler.js';

const clock = { now: () => Date.UTC(2026, 10, 29, 12) };
const context = { functionName: 'operator', awsRequestId: 'r' } as Context;

/** In-memory stores, a running turn of Ann's and one of Bob's, and the handler on them. */
async function setup() {
  const stopped: string[] = [];
  const starter: ExecutionStarter = {
    start: async ({ turn }) => turn,
    stop: async ({ turn }) => {
      stopped.push(turn);
    },
  };
  const stores = inMemoryStores();
  const running = [
    { session: storedSession('ann', 's-1'), turn: 't-ann' },
    { session: storedSession('bob', 's-2'), turn: 't-bob' },
  ];
  const deps = { ...stores, clock, starter, runningTurns: async () => running };
  for (const turn of running) await submitTurn({ ...turn, prompt: 'Go on.' }, deps);
  return { deps, stores, stopped, running, handler: createHandler(deps) };
}

describe('the operator function', () => {
  it('suspends one tenant: its running turn is cancelled and stopped, another tenant runs on', async () => {
    const { handler, stores, stopped, running } = await setup();
    const answer = await handler({ action: 'suspend', tenant: 'ann', reason: 'incident 42' }, context);
    expect(answer).toMatchObject({
      message: 'Tenant ann suspended: no turn starts, and its running turns are cancelled.',
      tenant: { tenant: 'ann', suspended: { since: clock.now(), reason: 'incident 42', every: false } },
      cancelled: [running[0]],
    });
    expect(stopped).toEqual(['t-ann']);
    const ended = (await stores.log.read(running[0]?.session ?? '')).at(-1);
    expect(ended?.event).toMatchObject({ type: 'turn_end', payload: { status: 'cancelled' } });
    expect(await stores.log.holder(running[1]?.session ?? '')).toMatchObject({ turn: 't-bob' });
  });

  it('suspends every tenant and resumes them', async () => {
    const { handler, stopped } = await setup();
    const suspended = await handler({ action: 'suspend', all: true }, context);
    expect(suspended).toMatchObject({ tenant: { tenant: '*', suspended: { every: true } } });
    expect(stopped.sort()).toEqual(['t-ann', 't-bob']);
    const resumed = await handler({ action: 'resume', all: true }, context);
    expect(resumed).toMatchObject({ message: 'Every tenant resumed.', tenant: { suspended: null } });
  });

  it("sets a tenant's ceiling and shows it with what the tenant spent", async () => {
    const { handler, stores } = await setup();
    await stores.tenantSpend.reserve(tenantTag('ann'), 'micros', 25_000, {}, clock.now());
    await stores.tenantSpend.reserve(tenantTag('ann'), 'tokens', 1_234, {}, clock.now());
    const ceiling = { usdPerDay: 0.5, tokensPerMonth: 1_000_000 };
    await handler({ action: 'set-ceiling', tenant: 'ann', ceiling }, context);
    const { tenant } = await handler({ action: 'show', tenant: 'ann' }, context);
    expect(tenant).toEqual<TenantReport>({
      tenant: 'ann',
      suspended: null,
      ceiling,
      spentUsd: { day: 0.025, month: 0.025 },
      spentTokens: { day: 1_234, month: 1_234 },
    });
    const dropped = await handler({ action: 'set-ceiling', tenant: 'ann', ceiling: null }, context);
    expect(dropped).toMatchObject({
      message: 'Tenant ann has no ceiling of its own.',
      tenant: { ceiling: null },
    });
  });

  it.each([
    [{ action: 'suspend' }, 'tenant'],
    [{ action: 'show', all: true }, 'all'],
    [{ action: 'set-ceiling', tenant: 'ann' }, 'ceiling'],
    [{ action: 'set-ceiling', tenant: 'ann', ceiling: {} }, 'ceiling'],
    [{ action: 'resume', tenant: 'ann', reason: 'why' }, 'reason'],
    [{ action: 'delete', tenant: 'ann' }, 'action'],
  ])('refuses %j, naming %s, before acting', async (payload, field) => {
    const { handler, stores } = await setup();
    await expect(handler(payload, context)).rejects.toThrow(field);
    expect(await stores.tenantControls.get(tenantTag('ann'))).toEqual({});
  });
});
