import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { renderSystemPrompt } from './render-system-prompt.js';
import { describeTool } from './tool-description.js';

const read = describeTool({
  name: 'read',
  description: 'Reads a file from the workspace.',
  input: z.strictObject({ file: z.string(), lines: z.number().int().min(1).optional() }),
});
const fetchTool = describeTool({
  name: 'http_fetch',
  description: 'Fetches a URL.',
  input: z.strictObject({ url: z.url(), method: z.enum(['GET', 'HEAD']).default('GET') }),
});

/** The JSON arrays of every `<execute>` example in a prompt. */
function exampleBatches(prompt: string): Array<Array<{ name: string; args: unknown }>> {
  return [...prompt.matchAll(/<execute>\n(\[[\s\S]*?\])\n<\/execute>/g)].map((match) =>
    JSON.parse(match[1] ?? ''),
  );
}

describe('describeTool', () => {
  it('derives the argument schema from zod with z.toJSONSchema', () => {
    expect(read.parameters).toEqual({
      type: 'object',
      properties: {
        file: { type: 'string' },
        lines: { type: 'integer', minimum: 1, maximum: expect.any(Number) },
      },
      required: ['file'],
      additionalProperties: false,
    });
  });
});

describe('renderSystemPrompt', () => {
  it('teaches think, execute, parallel batches, results, dependent calls and the end of a turn', () => {
    const prompt = renderSystemPrompt({ tools: [read] });
    for (const phrase of [
      '<think>',
      '<execute>',
      '</execute>',
      '<results>',
      '<end>',
      'at the same time',
      'later step',
    ]) {
      expect(prompt).toContain(phrase);
    }
  });

  it('lists every tool with its JSON Schema', () => {
    const prompt = renderSystemPrompt({ tools: [read, fetchTool] });
    expect(prompt).toContain(
      `## read\nReads a file from the workspace.\nArguments (JSON Schema): ${JSON.stringify(read.parameters)}`,
    );
    expect(prompt).toContain('## http_fetch');
  });

  it.each([
    ['one tool', [read]],
    ['two tools', [read, fetchTool]],
  ])('with %s, its examples call only tools that exist, with their required arguments', (_case, tools) => {
    const batches = exampleBatches(renderSystemPrompt({ tools }));
    expect(batches.length).toBeGreaterThan(0);
    for (const call of batches.flat()) {
      const tool = tools.find((candidate) => candidate.name === call.name);
      expect(tool).toBeDefined();
      expect(Object.keys(call.args as object)).toEqual(tool?.parameters.required);
    }
  });

  it('without tools, says so and shows no execute example', () => {
    const prompt = renderSystemPrompt({ tools: [] });
    expect(prompt).toContain('No tools are available');
    expect(exampleBatches(prompt)).toEqual([]);
  });

  it('puts the agent instructions first and is deterministic', () => {
    const options = { tools: [read], instructions: 'You are a careful file assistant.' };
    expect(
      renderSystemPrompt(options).startsWith('You are a careful file assistant.\n\n# How you work'),
    ).toBe(true);
    expect(renderSystemPrompt(options)).toBe(renderSystemPrompt(options));
  });
});
