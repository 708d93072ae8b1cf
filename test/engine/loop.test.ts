import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMessages } from '@agentstep/protocol';
import { defineTool, demoTools, LocalDirectoryWorkspace, type StepUsage } from '@agentstep/runtime';
import { readUntil } from '@agentstep/runtime/testing';
import { builtInTools } from '@agentstep/runtime/tools';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import {
  anyTurn,
  batch,
  canonical,
  chaosSeeds,
  heldCalls,
  localAgent,
  resultItems,
} from '../support/harness.js';

const done = 'Done.<end>';

/** A ledger as two runs of one script must agree on it: without times and turn ids. */
const canonicalLedger = (entries: readonly StepUsage[]) =>
  entries.map(({ at: _, latencyMs: __, session: ___, batch: id, ...rest }) => ({
    batch: anyTurn(id),
    ...rest,
  }));

/** Three calls of the held tool, `a`, `b` and `c`. */
const holdBatch = batch(['hold', { value: 'a' }], ['hold', { value: 'b' }], ['hold', { value: 'c' }]);

describe.skipIf(dynamoEndpoint === '')(
  'the agent loop: synthesized state machine, real handlers, DynamoDB Local',
  () => {
    it('B3 runs a batch in parallel and returns results in call order', async () => {
      const held = heldCalls();
      const agent = await localAgent({ script: [holdBatch, done], tools: [...demoTools, held.tool] });
      const { session, turn, run } = await agent.start('go');
      // All three run at once: each has started while none has been let end.
      await held.started(['a', 'b', 'c']);
      // They end out of call order, each outcome stored before the next call may end.
      for (const [value, position] of [
        ['b', 1],
        ['c', 2],
        ['a', 0],
      ] as const) {
        held.release(value);
        const outcome = () => agent.stores.outcomes.get({ session, batch: `${turn}.1`, position });
        await readUntil(outcome, (stored) => stored !== undefined);
      }
      expect((await run).output.status).toBe('done');
      expect(held.order.slice(0, 3).sort()).toEqual(['start a', 'start b', 'start c']);
      expect(held.order.slice(3)).toEqual(['end b', 'end c', 'end a']);
      const events = await agent.stores.log.read(session);
      expect(resultItems(events, `${turn}.1`).map((item) => item.content)).toEqual(['a', 'b', 'c']);
    });

    it('B3 a sequential session runs the calls one after another, results still in call order', async () => {
      const held = heldCalls();
      const agent = await localAgent({ script: [holdBatch, done], tools: [...demoTools, held.tool] });
      const { session, turn, run } = await agent.start('go', { toolExecution: 'sequential' });
      for (const value of ['a', 'b', 'c']) {
        await held.started([value]);
        held.release(value);
      }
      expect((await run).output.status).toBe('done');
      expect(held.order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
      const events = await agent.stores.log.read(session);
      expect(resultItems(events, `${turn}.1`).map((item) => item.content)).toEqual(['a', 'b', 'c']);
    });

    it('B4 isolates a failing call: success, failure, success, and the run goes on', async () => {
      const agent = await localAgent({
        script: [
          batch(['echo', { text: '1' }], ['fail', { message: 'boom' }], ['echo', { text: '3' }]),
          done,
        ],
      });
      const { events, output, stats } = await agent.turn('go');
      const resultEvent = events.find((stored) => stored.event.type === 'result')?.event;
      expect(resultItems(events, events[1]?.batch ?? '').map((item) => item.status)).toEqual([
        'success',
        'failure',
        'success',
      ]);
      expect(resultEvent).toMatchObject({
        payload: { tools_executed: 3, success_count: 2, failure_count: 1 },
      });
      expect(output.status).toBe('done');
      expect(stats.modelSteps).toBe(2);
    });

    it('B1 validation: an unknown tool, wrong types and extra keys fail, and no tool code runs', async () => {
      let runs = 0;
      const probe = defineTool({
        name: 'probe',
        description: 'Counts its runs.',
        input: z.object({ n: z.number() }),
        handler: () => ++runs,
      });
      const agent = await localAgent({
        tools: [...demoTools, probe],
        script: [batch(['prob', { n: 1 }], ['probe', { n: 'one' }], ['probe', { n: 1, extra: true }]), done],
      });
      const { events } = await agent.turn('go');
      const items = resultItems(events, events[1]?.batch ?? '');
      expect(items.map((item) => item.status)).toEqual(['failure', 'failure', 'failure']);
      expect(items[0]?.content).toContain("Unknown tool 'prob'. Available: echo, sleep, fail, blob, probe");
      expect(items[1]?.content).toContain('n: expected number, received string');
      expect(items[2]?.content).toContain('unknown argument extra (arguments: n)');
      expect(runs).toBe(0);
    });

    it('B6 a 5 MB output: the run completes with small state, the context is capped, the log keeps it all', async () => {
      const agent = await localAgent({ script: [batch(['blob', { bytes: 5 * 1024 * 1024 }]), done] });
      const { events, output, stats } = await agent.turn('go');
      expect(output.status).toBe('done');
      expect(stats.maxStatePayloadBytes).toBeLessThanOrEqual(8 * 1024);
      expect(resultItems(events, events[1]?.batch ?? '')[0]?.content).toHaveLength(5 * 1024 * 1024);
      const context = buildMessages(events)
        .map((message) => message.content)
        .join('\n');
      expect(context).toContain('[truncated: 5226496 of 5242880 bytes cut, the first 16384 shown.');
      expect(context.length).toBeLessThan(20_000);
    });

    describe('C3 chaos: at P = 0.5 each seed gives the log of a run without chaos', () => {
      const script = [
        '<think>plan</think>',
        batch(['echo', { text: 'x' }], ['fail', { message: 'no' }], ['echo', { text: 'y' }]),
      ];
      const steps = [script.join(''), batch(['echo', { text: 'again' }]), done];
      let reference: Promise<ReturnType<typeof canonical>> | undefined;
      const referenceLog = () =>
        (reference ??= localAgent({ script: steps })
          .then((agent) => agent.turn('go'))
          .then(({ events }) => canonical(events)));

      it.each(chaosSeeds(20))('seed %i on %s', async (seed, storage) => {
        const agent = await localAgent({ script: steps, chaos: { probability: 0.5, seed }, storage });
        const { events, output } = await agent.turn('go');
        expect(output.status).toBe('done');
        expect(canonical(events)).toEqual(await referenceLog());
      });
    });

    describe('C3 chaos over invalid batches and blank outputs: at P = 0.5 each seed gives the same log and ledger', () => {
      const step = (n: number, text: string) => ({
        chunks: [text],
        usage: { inputTokens: 100 * n, outputTokens: n, cacheReadTokens: 0, cacheWriteTokens: 0 },
      });
      const steps = [
        step(1, '<execute>not json</execute>'),
        step(2, '<think>fix it</think><execute>{"name": "echo"}</execute>'),
        step(3, batch(['echo', { text: 'x' }])),
        // Blank: asked once more (decision 0012), the next step answers.
        step(4, '  '),
        step(5, 'Answered when asked again.'),
      ];
      const run = async (agent: Awaited<ReturnType<typeof localAgent>>) => {
        const { events, output, session } = await agent.turn('go');
        expect(output.status).toBe('done');
        return { log: canonical(events), ledger: canonicalLedger(await agent.stores.usage.list(session)) };
      };
      let reference: ReturnType<typeof run> | undefined;
      const referenceRun = () => (reference ??= localAgent({ script: steps }).then(run));

      it('without chaos, the ledger has one entry per model step', async () => {
        const { ledger, log } = await referenceRun();
        expect(ledger.map((entry) => entry.usage.outputTokens)).toEqual([1, 2, 3, 4, 5]);
        expect(log.at(-2)).toMatchObject({ type: 'respond', content: 'Answered when asked again.' });
      });

      it.each(chaosSeeds(12))('seed %i on %s', async (seed, storage) => {
        const agent = await localAgent({ script: steps, chaos: { probability: 0.5, seed }, storage });
        expect(await run(agent)).toEqual(await referenceRun());
        expect(agent.model.calls).toHaveLength(5);
      });
    });

    it('the workspace tools write, list and read a session file', async () => {
      const workspace = new LocalDirectoryWorkspace(mkdtempSync(join(tmpdir(), 'workspace-')));
      const agent = await localAgent({
        tools: builtInTools(['workspace'], { workspace }),
        script: [
          batch(['write', { file: 'notes/plan.md', content: '# Plan\nShip it.' }]),
          batch(
            ['list', { folder: 'notes' }],
            ['read', { file: 'notes/plan.md', offset: 7 }],
            ['read', { file: '../x' }],
          ),
          done,
        ],
      });
      const { events } = await agent.turn('go');
      const batches = [
        ...new Set(events.flatMap((stored) => (stored.event.type === 'result' ? [stored.batch ?? ''] : []))),
      ];
      expect(resultItems(events, batches[0] ?? '')[0]?.content).toEqual({ file: 'notes/plan.md', bytes: 15 });
      expect(resultItems(events, batches[1] ?? '')).toEqual([
        { tool: 'list', status: 'success', content: [{ path: 'notes/plan.md', type: 'file', size: 15 }] },
        {
          tool: 'read',
          status: 'success',
          content: { content: 'Ship it.', offset: 7, total_bytes: 15 },
        },
        { tool: 'read', status: 'failure', content: 'The path "../x" leaves the workspace ("..").' },
      ]);
    });

    it('two turns in one session: the second turn sees the first, and plays its script afresh', async () => {
      const agent = await localAgent({ script: ['Answer.'] });
      const first = await agent.turn('first question');
      const second = await agent.turn('second question', { session: first.session });
      expect(second.output.status).toBe('done');
      expect(agent.model.calls.map(({ step, turnStep }) => ({ step, turnStep }))).toEqual([
        { step: 0, turnStep: 0 },
        { step: 1, turnStep: 0 },
      ]);
      expect(agent.model.calls[1]?.messages).toEqual([
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'Answer.' },
        { role: 'user', content: 'second question' },
      ]);
    });

    it('60 steps with 10 per execution: continues in 6 executions, seq gap-free, context intact', async () => {
      const steps = [
        ...Array.from({ length: 59 }, (_, index) => batch(['echo', { text: `step ${index + 1}` }])),
        done,
      ];
      const agent = await localAgent({ script: steps });
      const { events, output, stats } = await agent.turn('go', { stepsPerExecution: 10, maxSteps: 100 });
      expect(output.status).toBe('done');
      expect(stats.executions).toBeGreaterThanOrEqual(6);
      expect(stats.modelSteps).toBe(60);
      expect(events.map((stored) => stored.seq)).toEqual(events.map((_, index) => index + 1));
      expect(agent.model.calls[59]?.messages.at(-1)?.content).toContain('"content": "step 59"');
    });

    it('stops at the step limit with a clear message', async () => {
      const agent = await localAgent({
        // Each call new: the same call again would stop the turn first (RepeatedCall, decision 0030).
        script: Array.from({ length: 5 }, (_, index) => batch(['echo', { text: `again ${index}` }])),
      });
      const { output, stats } = await agent.turn('go', { maxSteps: 3 });
      expect(output).toMatchObject({
        status: 'limit',
        message: expect.stringContaining('after 3 model steps'),
      });
      expect(stats.modelSteps).toBe(3);
    });

    it('a token budget stops the turn across fresh executions, with the usage ledger on DynamoDB Local', async () => {
      const usage = { inputTokens: 400, outputTokens: 100 };
      const agent = await localAgent({
        script: Array.from({ length: 8 }, (_, index) => ({
          chunks: [batch(['echo', { text: `again ${index}` }])],
          usage,
        })),
      });
      const { output, stats, session } = await agent.turn('go', {
        stepsPerExecution: 2,
        budget: { maxTokens: 2_000 },
      });
      expect(output).toMatchObject({
        status: 'limit',
        message: expect.stringContaining('The token budget is spent: 2000 of 2000 tokens used'),
      });
      expect(stats.modelSteps).toBe(4);
      expect(stats.executions).toBe(3);
      const ledger = await agent.stores.usage.list(session);
      expect(ledger.map((entry) => entry.usage.inputTokens + entry.usage.outputTokens)).toEqual([
        500, 500, 500, 500,
      ]);
    });

    it('20 sessions at once on one engine: each log holds only its own events', async () => {
      const held = heldCalls();
      const agent = await localAgent({ script: [batch(['hold', { value: 'z' }]), done], tools: [held.tool] });
      const turns = Array.from({ length: 20 }, (_, index) => agent.turn(`session ${index}`));
      // Every session is in its batch at once before any may go on.
      await held.started(['z'], 20);
      held.release('z');
      for (const run of await Promise.all(turns)) {
        expect(run.output.status).toBe('done');
        expect(run.events.every((stored) => stored.session === run.session)).toBe(true);
        expect(run.events.map((stored) => stored.event.type)).toEqual([
          'user',
          'call',
          'result',
          'respond',
          'turn_end',
        ]);
      }
    });
  },
);
