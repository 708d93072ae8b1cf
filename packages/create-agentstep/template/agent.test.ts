import { runAgent } from '@agentstep/cli/testing';
import { describe, expect, it } from 'vitest';
import agent, { wordCount } from './agent.ts';

describe('word_count', () => {
  it('counts the words between any spaces', async () => {
    const context = {
      session: 's',
      turn: 't',
      batch: 'b',
      position: 0,
      signal: new AbortController().signal,
      idempotencyKey: 's:b:0',
    };
    expect(await wordCount.handler({ text: ' one  two\nthree ' }, context)).toEqual({ words: 3 });
  });
});

describe('the agent', () => {
  it('counts the words with its tool and answers', async () => {
    // The scripted model plays these steps: the test says what the model does, the agent does the rest.
    const run = await runAgent(agent, {
      prompt: 'How many words are in "one two three"?',
      script: [
        '<execute>[{"name": "word_count", "args": {"text": "one two three"}}]</execute>',
        'There are 3 words.',
      ],
    });
    expect(run.status).toBe('done');
    expect(run.results[0]?.output).toEqual({ words: 3 });
    expect(run.answer).toBe('There are 3 words.');
  });
});
