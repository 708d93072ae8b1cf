import { createParser } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import type { ModelPart } from './model.js';
import { reasoningAsThink } from './reasoning-as-think.js';

async function* parts(...items: ModelPart[]): AsyncGenerator<ModelPart> {
  yield* items;
}

async function written(...items: ModelPart[]): Promise<string> {
  let text = '';
  for await (const part of reasoningAsThink(parts(...items))) if (typeof part === 'string') text += part;
  return text;
}

const usage = { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe('reasoningAsThink', () => {
  it('writes a run of reasoning as one <think> block before the answer, and passes usage on', async () => {
    const out: unknown[] = [];
    for await (const part of reasoningAsThink(parts({ reasoning: 'a' }, { reasoning: 'b' }, 'hi', usage)))
      out.push(part);
    expect(out).toEqual(['<think>a', 'b', '</think>hi', usage]);
  });

  it('closes a block of reasoning alone at the end of the stream', async () => {
    expect(await written({ reasoning: 'only' }, usage)).toBe('<think>only</think>');
  });

  it.each([[['x </think> y']], [['x </th', 'ink> y']], [['x <', '/', 'think', '> y']]])(
    'escapes a </think> inside reasoning, however split (%j)',
    async (deltas) => {
      const text = await written(...deltas.map((reasoning) => ({ reasoning })), 'answer');
      expect(text).toBe('<think>x <\\/think> y</think>answer');
      expect(createParser().push(text)).toEqual([{ type: 'think', content: 'x <\\/think> y' }]);
    },
  );

  it('keeps a held partial closer that turns out to be text', async () => {
    expect(await written({ reasoning: 'a </thi' }, 'b')).toBe('<think>a </thi</think>b');
  });

  it('leaves out reasoning that arrives inside an open <execute> block', async () => {
    expect(await written('<execute>[', { reasoning: 'again' }, ']</execute>')).toBe('<execute>[]</execute>');
  });
});
