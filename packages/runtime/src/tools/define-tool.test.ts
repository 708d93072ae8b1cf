import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InvalidToolError } from '../errors.js';
import { defineTool } from './define-tool.js';

const valid = {
  name: 'word_count',
  description: 'Counts the words of a text.',
  input: z.object({ text: z.string() }),
  handler: ({ text }: { text: string }) => text.split(' ').length,
};

/** What `defineTool` throws for `definition`, a value a JavaScript caller (or `as any`) may pass. */
function thrown(definition: Record<string, unknown>): unknown {
  try {
    defineTool({ ...valid, ...definition } as never);
  } catch (error) {
    return error;
  }
  return expect.unreachable('defineTool accepted the definition');
}

describe('defineTool', () => {
  it('makes a tool whose input refuses unknown keys, with the defaults applied', () => {
    const tool = defineTool(valid);
    expect(tool).toMatchObject({ name: 'word_count', sequential: false, timeoutMs: 30_000, approval: false });
    expect(tool.input.safeParse({ text: 'a', more: 1 }).success).toBe(false);
  });

  it.each([
    ['z.string()', z.string(), 'received a string schema'],
    ['z.array()', z.array(z.string()), 'received an array schema'],
    ['z.object().optional()', z.object({ text: z.string() }).optional(), 'received an optional schema'],
    [
      "{ text: 'string' }",
      { text: 'string' },
      'received a plain object with text: wrap zod types in z.object, e.g. z.object({ text: z.string() })',
    ],
    ['undefined', undefined, 'received nothing'],
    ["'text'", 'text', 'received a string'],
  ])('a bad schema names the tool and the rule: %s', (_label, input, what) => {
    const error = thrown({ input });
    expect(error).toBeInstanceOf(InvalidToolError);
    expect(error).toMatchObject({
      name: 'InvalidToolError',
      tool: 'word_count',
      message: `Tool "word_count": input must be a zod object schema, z.object({ ... }) of zod 4 (import * as z from 'zod'); ${what}.`,
    });
  });

  it('refuses an input the prompt cannot show as JSON Schema, with zod’s error as its cause', () => {
    const error = thrown({ input: z.object({ when: z.date() }) });
    expect(error).toMatchObject({
      message:
        'Tool "word_count": input must be describable as JSON Schema for the model (Date cannot be represented in JSON Schema); use JSON types: strings, numbers, booleans, arrays, objects.',
      cause: expect.any(Error),
    });
  });

  it.each([
    [
      { name: 'two words' },
      'Tool "two words": name must be 1–64 letters, digits, "_", "." or "-", from a letter or "_"; received "two words".',
    ],
    [
      { name: undefined },
      'Tool "": name must be 1–64 letters, digits, "_", "." or "-", from a letter or "_"; received nothing.',
    ],
    [
      { description: undefined },
      'Tool "word_count": description must be a text saying what the tool does; received nothing.',
    ],
    [
      { handler: 'count' },
      'Tool "word_count": handler must be a function (args, context) => output; received a string.',
    ],
    [
      { input: z.object({ user_id: z.string() }) },
      'Tool "word_count": declares user_id: identity comes from the call context, not from model arguments.',
    ],
  ])('names the tool and the rule it breaks: %#', (definition, message) => {
    expect(thrown(definition)).toMatchObject({ name: 'InvalidToolError', message });
  });

  it('is a type error for an input that is not a zod object schema', () => {
    const handler = () => 'counted';
    const definitions = [
      // @ts-expect-error a string schema is not an object of arguments
      () => defineTool({ name: 'a', description: 'd', input: z.string(), handler }),
      // @ts-expect-error a plain object is not a zod schema
      () => defineTool({ name: 'b', description: 'd', input: { text: 'string' }, handler }),
      // @ts-expect-error an optional object is not one
      () => defineTool({ name: 'c', description: 'd', input: z.object({}).optional(), handler }),
    ];
    for (const define of definitions) expect(define).toThrow(InvalidToolError);
  });
});
