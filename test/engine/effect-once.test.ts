import { defineTool, type OutcomeStore } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, canonical, chaosSeeds, localAgent, resultItems, type Stores } from '../support/harness.js';

const done = 'Done.<end>';

/** A non-idempotent `charge` tool whose every run is an effect, counted by the call's idempotency key. */
function countingTool() {
  const effects = new Map<string, number>();
  const tool = defineTool({
    name: 'charge',
    description: 'Charges an invoice; one charge per idempotency key.',
    input: z.object({ invoice: z.string() }),
    handler: ({ invoice }, { idempotencyKey }) => {
      effects.set(idempotencyKey, (effects.get(idempotencyKey) ?? 0) + 1);
      return `charged ${invoice}`;
    },
  });
  return { tool, effects };
}

/** Two batches: three charges at once, then one more. */
const script = [
  batch(['charge', { invoice: 'a' }], ['charge', { invoice: 'b' }], ['charge', { invoice: 'c' }]),
  batch(['charge', { invoice: 'd' }]),
  done,
];

/** The outcome store, its first write failing as a tools function that Lambda stops after the effect. */
function killedAfterEffect(stores: Stores): Stores {
  let killed = false;
  const outcomes: OutcomeStore = {
    get: (ref) => stores.outcomes.get(ref),
    list: (session, batchId, count) => stores.outcomes.list(session, batchId, count),
    markStarted: (ref) => stores.outcomes.markStarted(ref),
    started: (ref) => stores.outcomes.started(ref),
    put: (ref, outcome) => {
      if (killed) return stores.outcomes.put(ref, outcome);
      killed = true;
      const error = Object.assign(new Error('Task timed out after 300.00 seconds'), {
        name: 'Sandbox.Timedout',
      });
      return Promise.reject(error);
    },
  };
  return { ...stores, outcomes };
}

describe.skipIf(dynamoEndpoint === '')('effect-once tools (decision 0031)', () => {
  let reference: Promise<ReturnType<typeof canonical>> | undefined;
  const referenceLog = () =>
    (reference ??= localAgent({ script, tools: [countingTool().tool] })
      .then((agent) => agent.turn('go'))
      .then(({ events }) => canonical(events)));

  it.each(chaosSeeds(12))(
    'C3 at P = 0.5, seed %i on %s: one effect per call and the log of a run without chaos',
    async (seed, storage) => {
      const { tool, effects } = countingTool();
      const agent = await localAgent({ script, tools: [tool], chaos: { probability: 0.5, seed }, storage });
      const { events, output, session } = await agent.turn('go');
      expect(output.status).toBe('done');
      expect(canonical(events)).toEqual(await referenceLog());
      const batches = [
        ...new Set(events.flatMap((stored) => (stored.event.type === 'result' ? [stored.batch] : []))),
      ];
      const keys = batches.flatMap((id, index) =>
        (index === 0 ? [0, 1, 2] : [0]).map((position) => `${session}:${id}:${position}`),
      );
      expect(Object.fromEntries(effects)).toEqual(Object.fromEntries(keys.map((key) => [key, 1])));
    },
  );

  it('a tools function killed after the effect: the model reads outcome unknown, and the effect happened once', async () => {
    const { tool, effects } = countingTool();
    const agent = await localAgent({
      script: [batch(['charge', { invoice: 'a' }]), done],
      tools: [tool],
      stores: killedAfterEffect,
    });
    const { events, output } = await agent.turn('go');
    expect(output.status).toBe('done');
    const [item] = resultItems(events, events[1]?.batch ?? '');
    expect(item).toEqual({
      tool: 'charge',
      status: 'failure',
      content: 'outcome unknown: the tools function timed out after it may have started',
    });
    expect([...effects.values()]).toEqual([1]);
    expect(JSON.stringify(agent.model.calls[1]?.messages)).toContain(
      'outcome unknown: the tools function timed out',
    );
  });
});
