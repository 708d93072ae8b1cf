import { fileURLToPath } from 'node:url';
import { defineAgent, defineTool } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import counter from './fixtures/counter-agent.js';
import { type AgentRun, runAgent } from './run-agent.js';

const agent = defineAgent({
  name: 'counter',
  tools: [
    defineTool({
      name: 'word_count',
      description: 'Counts the words of a text.',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => ({ words: text.split(/\s+/).filter((word) => word !== '').length }),
    }),
  ],
});

describe('runAgent', () => {
  it("runs one turn of the agent on the scripted steps: its tool's result, the answer, the log", async () => {
    const run = await runAgent(agent, {
      prompt: 'Count: one two three',
      script: [
        '<execute>[{"name": "word_count", "args": {"text": "one two three"}}]</execute>',
        'There are 3 words.',
      ],
    });
    expect(run.status).toBe('done');
    expect(run.answer).toBe('There are 3 words.');
    expect(run.results).toEqual([
      { name: 'word_count', args: { text: 'one two three' }, ok: true, output: { words: 3 } },
    ]);
    expect(run.events.map((event) => event.type)).toEqual([
      'user',
      'turn_start',
      'call',
      'result',
      'respond',
      'turn_end',
    ]);
    expect(run.events[0]).toMatchObject({ seq: 1, type: 'user', content: 'Count: one two three' });
  });

  it('reports a failed call as the model read it, and a turn the step limit stopped', async () => {
    const limited = defineAgent({ ...agent, limits: { maxSteps: 1 } });
    const run = await runAgent(limited, {
      prompt: 'Count',
      script: ['<execute>[{"name": "word_count", "args": {"words": 1}}]</execute>', 'Never.'],
    });
    expect(run.status).toBe('limit');
    expect(run.answer).toBe('');
    expect(run.results).toEqual([
      { name: 'word_count', args: { words: 1 }, ok: false, output: expect.any(String) },
    ]);
  });

  it("stops a turn that repeats one call at its agent's limits.repeatedCalls: limit, RepeatedCall (decision 0030)", async () => {
    const patient = defineAgent({ ...agent, limits: { repeatedCalls: 4 } });
    const count = '<execute>[{"name": "word_count", "args": {"text": "a b"}}]</execute>';
    const run = await runAgent(patient, {
      prompt: 'Count',
      script: [count, count, count, count, count, 'Never.'],
    });
    expect(run.status).toBe('limit');
    expect(run.message).toMatch(
      /^RepeatedCall: word_count was called 4 times with the same arguments \{"text":"a b"\}\. /,
    );
    expect(run.results).toHaveLength(4);
  });

  it('lets a waiting call of a tool approvals does not list expire, a failed result the model reads', async () => {
    const guarded = defineAgent({ ...agent, approvals: ['word_count'] });
    const run = await runAgent(guarded, {
      prompt: 'Count',
      script: ['<execute>[{"name": "word_count", "args": {"text": "a"}}]</execute>', 'It expired.'],
      approvals: { echo: 'approve' },
    });
    expect(run).toMatchObject({ status: 'done', answer: 'It expired.' });
    expect(run.results).toEqual([
      { name: 'word_count', args: { text: 'a' }, ok: false, output: 'approval timed out' },
    ]);
  });

  describe('approvals', () => {
    const guarded = defineAgent({ ...agent, approvals: ['word_count'] });
    const count = (text: string) =>
      `<execute>[{"name": "word_count", "args": {"text": ${JSON.stringify(text)}}}]</execute>`;
    // The approval's last event: its settlement, after its request.
    const decision = (run: AgentRun) => run.events.filter((event) => event.type === 'approval').at(-1);

    it('runAgent approves a waiting call as soon as it waits: the tool runs', async () => {
      const run = await runAgent(guarded, {
        prompt: 'Count',
        script: [count('one two'), 'There are 2 words.'],
        approvals: { word_count: 'approve' },
      });
      expect(run).toMatchObject({ status: 'done', answer: 'There are 2 words.' });
      expect(run.results).toEqual([
        { name: 'word_count', args: { text: 'one two' }, ok: true, output: { words: 2 } },
      ]);
      expect(decision(run)).toMatchObject({ payload: { status: 'approved', by: 'runAgent' } });
    });

    it('denies with a reason the model reads', async () => {
      const run = await runAgent(guarded, {
        prompt: 'Count',
        script: [count('secret words'), 'I may not count that.'],
        approvals: { word_count: (args) => ({ decision: 'deny', reason: `not ${String(args.text)}` }) },
      });
      expect(run.results).toEqual([
        { name: 'word_count', args: { text: 'secret words' }, ok: false, output: 'denied: not secret words' },
      ]);
      expect(run.answer).toBe('I may not count that.');
      expect(decision(run)).toMatchObject({ payload: { status: 'denied', reason: 'not secret words' } });
    });

    it("denies with 'deny': the model reads that no reason was given", async () => {
      const run = await runAgent(guarded, {
        prompt: 'Count',
        script: [count('a'), 'Denied.'],
        approvals: { word_count: 'deny' },
      });
      expect(run.results[0]).toMatchObject({ ok: false, output: 'denied: no reason given' });
    });

    it('approves with edited arguments: the tool runs with them', async () => {
      const run = await runAgent(guarded, {
        prompt: 'Count',
        script: [count('a'), 'Counted.'],
        approvals: {
          word_count: async ({ text }) => ({ decision: 'approve', args: { text: `${String(text)} b c` } }),
        },
      });
      // The arguments as the model wrote them; the output of the tool that ran with the edited ones.
      expect(run.results).toEqual([
        { name: 'word_count', args: { text: 'a' }, ok: true, output: { words: 3 } },
      ]);
      expect(decision(run)).toMatchObject({ payload: { status: 'approved', args: { text: 'a b c' } } });
    });

    it('rejects, naming the tool and the call, when a decision cannot be made', async () => {
      const refused = runAgent(guarded, {
        prompt: 'Count',
        script: [count('a'), 'Never read.'],
        approvals: { word_count: () => ({ decision: 'approve', args: { words: 1 } }) },
      });
      await expect(refused).rejects.toThrow(
        /^runAgent: approvals\.word_count did not decide the call \{"text":"a"\}: /,
      );
      const wrong = runAgent(guarded, {
        prompt: 'Count',
        script: [count('a'), 'Never read.'],
        approvals: { word_count: () => ({ decision: 'deny', args: { text: 'b' } }) },
      });
      await expect(wrong).rejects.toThrow('args: only an approval can edit the arguments');
      await expect(
        runAgent(guarded, { prompt: 'Count', approvals: { word_count: 'yes' as never } }),
      ).rejects.toThrow(
        `runAgent: approvals.word_count must be 'approve', 'deny' or a function of the call's arguments; received "yes".`,
      );
    });
  });

  it("plays the agent's own script, relative to its file, when no script is given", async () => {
    const agentFile = fileURLToPath(new URL('./fixtures/counter-agent.ts', import.meta.url));
    const run = await runAgent(counter, { prompt: 'Count', agentFile });
    expect(run).toMatchObject({ status: 'done', answer: 'There are 3 words.' });
    expect(run.results[0]?.output).toEqual({ words: 3 });
  });
});
