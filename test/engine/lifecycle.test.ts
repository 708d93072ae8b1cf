import { ERROR_NAMES, type StoredEvent, type TurnInput } from '@agentstep/protocol';
import { eventLogWith, type Model, type OutcomeStore } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { type AgentSetup, batch, localAgent, resultItems, type Stores } from '../support/harness.js';

const done = 'Done.<end>';

/** An error as a Lambda handler throws it: its name is the error Step Functions routes on. */
function named(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

/** The model, failing its first `times` requests with `error`. */
function failingModel(error: () => Error, times = Number.POSITIVE_INFINITY) {
  return (model: Model): Model => {
    let failures = 0;
    return {
      id: model.id,
      async *stream(request) {
        if (failures++ < times) throw error();
        yield* model.stream(request);
      },
    };
  };
}

/** The outcome store, its first write crashing the function as a Lambda time-out does. */
function crashingFirstOutcome(stores: Stores): Stores {
  let crashed = false;
  const outcomes: OutcomeStore = {
    get: (ref) => stores.outcomes.get(ref),
    list: (session, batchId, count) => stores.outcomes.list(session, batchId, count),
    markStarted: (ref) => stores.outcomes.markStarted(ref),
    started: (ref) => stores.outcomes.started(ref),
    put: (ref, outcome) => {
      if (crashed) return stores.outcomes.put(ref, outcome);
      crashed = true;
      return Promise.reject(named('Sandbox.Timedout', 'Task timed out after 300.00 seconds'));
    },
  };
  return { ...stores, outcomes };
}

/** The log, its reads failing once the model has failed: FailTurn cannot close the turn. */
function brokenAfterModelFailure(): Pick<AgentSetup, 'model' | 'stores'> {
  let broken = false;
  return {
    model: failingModel(() => {
      broken = true;
      return named(ERROR_NAMES.modelAuthFailed, 'The provider refused the key.');
    }),
    stores: (stores) => {
      const log = eventLogWith(stores.log, {
        read: (session, options) =>
          broken ? Promise.reject(new Error('The table is unreachable.')) : stores.log.read(session, options),
      });
      return { ...stores, log };
    },
  };
}

const turnEnds = (events: readonly StoredEvent[]) =>
  events.flatMap((stored) => (stored.event.type === 'turn_end' ? [stored.event] : []));

describe.skipIf(dynamoEndpoint === '')(
  'every way a turn ends: synthesized state machine, real handlers, DynamoDB Local',
  () => {
    it.each<
      [
        string,
        AgentSetup,
        Partial<TurnInput>,
        { status: string; error?: string; content: RegExp; execution?: 'failed' },
      ]
    >([
      [
        'done',
        { script: [batch(['echo', { text: 'x' }]), done] },
        {},
        { status: 'done', content: /finished/ },
      ],
      [
        'the step limit',
        { script: [batch(['echo', { text: 'x' }]), done] },
        { maxSteps: 1 },
        { status: 'limit', content: /after 1 model steps/ },
      ],
      [
        'a final model error',
        {
          script: [done],
          model: failingModel(() => named(ERROR_NAMES.modelAuthFailed, 'The key was refused.')),
        },
        {},
        { status: 'failed', error: 'ModelAuthFailed', content: /The key was refused/ },
      ],
      [
        'a Lambda service error, retried',
        { script: [done], model: failingModel(() => named('Lambda.ServiceException', 'Rate exceeded.'), 1) },
        {},
        { status: 'done', content: /finished/ },
      ],
      [
        'a tool function that crashed (RecordToolFailure)',
        { script: [batch(['echo', { text: 'x' }]), done], stores: crashingFirstOutcome },
        {},
        { status: 'done', content: /finished/ },
      ],
      [
        'FailTurn failing too (ReleaseTurn)',
        { script: [done], ...brokenAfterModelFailure() },
        {},
        // The turn is closed, but its result cannot be read from a table that fails every read.
        {
          status: 'failed',
          error: 'Error',
          content: /so did closing it: Error: The table is unreachable/,
          execution: 'failed',
        },
      ],
    ])('%s leaves exactly one terminal record and a free session', async (_how, setup, input, end) => {
      const agent = await localAgent(setup);
      const { session, run } = await agent.start('go', input);
      expect(
        await run.then(
          () => 'succeeded',
          () => 'failed',
        ),
      ).toBe(end.execution ?? 'succeeded');
      const events = await agent.stores.log.read(session);
      const payload = {
        turn: expect.any(String),
        status: end.status,
        ...(end.error ? { error: end.error } : {}),
      };
      expect(turnEnds(events)).toEqual([
        {
          type: 'turn_end',
          content: expect.stringMatching(end.content),
          payload,
          timestamp: expect.any(Number),
        },
      ]);
      expect(events.at(-1)?.event.type).toBe('turn_end');
      expect(await agent.stores.log.acquireTurn(session, 'next-turn')).toEqual({});
    });

    it('a crashed tool function gets a failure result naming its error, and the turn goes on', async () => {
      const agent = await localAgent({
        script: [batch(['echo', { text: 'x' }], ['echo', { text: 'y' }]), done],
        stores: crashingFirstOutcome,
      });
      const { events, output } = await agent.turn('go');
      expect(output.status).toBe('done');
      const items = resultItems(events, events[1]?.batch ?? '');
      expect(items.map((item) => item.status).sort()).toEqual(['failure', 'success']);
      expect(items.find((item) => item.status === 'failure')?.content).toContain(
        "The echo tool's function failed: Sandbox.Timedout",
      );
    });
  },
);
