import { defineTool, type ToolContext } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { canonicalJson, replayToolset } from './replay-toolset.js';

let runs = 0;
const count = defineTool({
  name: 'count',
  description: 'Counts a word.',
  input: z.object({ word: z.string(), times: z.number().optional() }),
  approval: true,
  handler: ({ word }) => {
    runs += 1;
    return `counted ${word}`;
  },
});
const context = {} as ToolContext;

describe('replayToolset', () => {
  it('answers each call from the recording, once per recorded call, in order, and runs nothing', async () => {
    const { tools, notRecorded } = replayToolset(
      [count],
      [
        { tool: 'count', args: { word: 'a', times: 2 }, status: 'success', content: 'first' },
        { tool: 'count', args: { times: 2, word: 'a' }, status: 'success', content: 'second' },
        { tool: 'count', args: { word: 'b' }, status: 'failure', content: 'no such word' },
      ],
    );
    const [replayed] = tools;
    expect(replayed).toMatchObject({ name: 'count', description: 'Counts a word.', approval: false });
    expect(await replayed?.handler({ times: 2, word: 'a' }, context)).toBe('first');
    expect(await replayed?.handler({ word: 'a', times: 2 }, context)).toBe('second');
    expect(() => replayed?.handler({ word: 'b' }, context)).toThrow('no such word');
    expect(() => replayed?.handler({ word: 'a', times: 2 }, context)).toThrow(/^not recorded: /);
    expect(() => replayed?.handler({ word: 'c' }, context)).toThrow(/^not recorded: /);
    expect(notRecorded()).toBe(2);
    expect(runs).toBe(0);
  });

  it('writes the same arguments in any key order as one canonical JSON', () => {
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: null })).toBe('{"a":null,"b":[{"x":2,"y":1}]}');
  });
});
