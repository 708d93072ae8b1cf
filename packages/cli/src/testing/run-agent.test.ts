import { fileURLToPath } from 'node:url';
import { defineAgent, defineTool } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import counter from './fixtures/counter-agent.js';
import { runAgent } from './run-agent.js';

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
    expect(run.events.map((event) => event.type)).toEqual(['user', 'call', 'result', 'respond', 'turn_end']);
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

  it('lets a call that waits for approval expire, a failed result the model reads', async () => {
    const guarded = defineAgent({ ...agent, approvals: ['word_count'] });
    const run = await runAgent(guarded, {
      prompt: 'Count',
      script: ['<execute>[{"name": "word_count", "args": {"text": "a"}}]</execute>', 'It expired.'],
    });
    expect(run).toMatchObject({ status: 'done', answer: 'It expired.' });
    expect(run.results).toEqual([
      { name: 'word_count', args: { text: 'a' }, ok: false, output: 'approval timed out' },
    ]);
  });

  it("plays the agent's own script, relative to its file, when no script is given", async () => {
    const agentFile = fileURLToPath(new URL('./fixtures/counter-agent.ts', import.meta.url));
    const run = await runAgent(counter, { prompt: 'Count', agentFile });
    expect(run).toMatchObject({ status: 'done', answer: 'There are 3 words.' });
    expect(run.results[0]?.output).toEqual({ words: 3 });
  });
});
