import { randomUUID } from 'node:crypto';
import { AGENT_STATE_MACHINE, LocalExecutionStarter } from '@agentstep/local';
import { turnResultSchema } from '@agentstep/protocol';
import { beginTurn, storedSession, systemClock } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, heldCalls, localAgent } from '../support/harness.js';

const ANSWER = 'All three checks passed.';
const SCRIPT = [`<think>Check.</think>${batch(['echo', { text: 'x' }])}`, `${ANSWER}<end>`];

/** The error an execution failed with, as the engine reports it. */
async function failureOf(run: Promise<unknown>): Promise<Error | undefined> {
  const failure = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  return (failure as { cause?: Error } | undefined)?.cause;
}

describe.skipIf(dynamoEndpoint === '')(
  'the execution contract: any AWS service starts a turn with {message, …}',
  () => {
    it('creates the session, runs the turn and outputs {session, turn, status, answer, usage}', async () => {
      const agent = await localAgent({ script: SCRIPT });
      const { output, stats } = await agent.engine.execute(AGENT_STATE_MACHINE, { message: 'Check things' });
      const result = turnResultSchema.parse(output);
      expect(result).toMatchObject({ status: 'done', answer: ANSWER, usage: { input: 0, output: 0 } });
      expect(result.session).toMatch(/^s-[0-9a-f]{12}$/);
      const events = await agent.stores.log.read(result.session);
      expect(events.map(({ event }) => event.type)).toEqual([
        'user',
        'think',
        'call',
        'result',
        'respond',
        'turn_end',
      ]);
      expect(events[0]?.event).toMatchObject({ content: 'Check things' });
      expect(stats.executions).toBe(1);
      // Its end is announced on the bus with the result as detail.
      expect(agent.engine.eventBus.events).toEqual([
        { source: 'agentstep', detailType: 'Agent Turn Completed', detail: result, eventBusName: 'default' },
      ]);
    });

    it('announces a failed turn as Agent Turn Failed, with its error in the detail', async () => {
      const agent = await localAgent({ script: [] });
      const { output } = await agent.engine.execute(AGENT_STATE_MACHINE, { message: 'Go', tenant: 'acme' });
      expect(output).toMatchObject({
        status: 'failed',
        message: expect.stringContaining('ScriptEnded'),
        tenant: 'acme',
      });
      expect(agent.engine.eventBus.events.map((event) => [event.detailType, event.detail])).toEqual([
        ['Agent Turn Failed', output],
      ]);
    });

    it('a turn whose execution was stopped is closed and announced by the local starter', async () => {
      const held = heldCalls();
      const agent = await localAgent({
        script: [batch(['hold', { value: 'late' }]), 'Never.'],
        tools: [held.tool],
      });
      const deps = { ...agent.stores, clock: systemClock };
      const starter = new LocalExecutionStarter(agent.engine, deps);
      const begun = await beginTurn({ prompt: 'Go' }, { ...deps, starter });
      // Stopped while its tool runs: a call held until the test ends.
      await held.started(['late']);
      await starter.stop(begun);
      await expect(starter.finished(begun.execution)).rejects.toThrow();
      expect(agent.engine.eventBus.events).toEqual([
        expect.objectContaining({
          detailType: 'Agent Turn Failed',
          detail: expect.objectContaining({ turn: begun.turn, status: 'failed' }),
        }),
      ]);
    });

    it('the same requestId twice starts one turn, and both executions output its result', async () => {
      const agent = await localAgent({ script: SCRIPT });
      const input = { message: 'Nightly report', requestId: `event-${randomUUID()}` };
      const first = await agent.engine.execute(AGENT_STATE_MACHINE, input);
      const second = await agent.engine.execute(AGENT_STATE_MACHINE, input);
      expect(second.output).toEqual(first.output);
      expect(first.output).toMatchObject({ status: 'done', answer: ANSWER, requestId: input.requestId });
      const { session } = turnResultSchema.parse(first.output);
      const users = (await agent.stores.log.read(session)).filter(({ event }) => event.type === 'user');
      expect(users).toHaveLength(1);
      expect(agent.model.calls).toHaveLength(2);
    });

    it('a turn continued in fresh executions still ends its first execution with the final answer', async () => {
      const steps = [1, 2, 3, 4].map((n) => batch(['echo', { text: `step ${n}` }]));
      const agent = await localAgent({ script: [...steps, `${ANSWER}<end>`] });
      const input = { message: 'Go', stepsPerExecution: 2 };
      const { output, stats } = await agent.engine.execute(AGENT_STATE_MACHINE, input);
      expect(output).toMatchObject({ status: 'done', answer: ANSWER });
      expect(stats.executions).toBe(3);
    });

    it('keeps a tenant’s session under the tenant’s tag, and names it as the caller did', async () => {
      const agent = await localAgent({ script: SCRIPT });
      const input = { message: 'Hi', session: `team-${randomUUID()}`, tenant: 'acme' };
      const { output } = await agent.engine.execute(AGENT_STATE_MACHINE, input);
      expect(output).toMatchObject({ session: input.session, status: 'done' });
      const stored = await agent.stores.log.read(storedSession('acme', input.session));
      expect(stored[0]?.event).toMatchObject({ type: 'user', content: 'Hi' });
    });

    it.each([
      [{}, /message: .*(required|expected string)/i],
      [{ message: 5 }, /message: .*expected string/i],
      [{ message: 'hi', sesion: 'typo' }, /sesion: not a field/],
      [{ message: 'hi', maxSteps: 0 }, /maxSteps: /],
    ])('fails on %j with InvalidTurnRequest naming the field', async (input, problem) => {
      const agent = await localAgent({ script: SCRIPT });
      const failure = await failureOf(agent.engine.execute(AGENT_STATE_MACHINE, input));
      expect(failure?.name).toBe('InvalidTurnRequest');
      expect(failure?.message).toMatch(problem);
    });
  },
);
