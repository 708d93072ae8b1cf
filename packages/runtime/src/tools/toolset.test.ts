import { describe, expect, it } from 'vitest';
import { demoTools } from './demo-tools.js';
import { createToolset } from './toolset.js';

describe('createToolset', () => {
  it('B1 names the available tools when a tool is unknown', () => {
    expect(createToolset(demoTools).find('reed')).toEqual({
      ok: false,
      message: "Unknown tool 'reed'. Available: echo, sleep, fail, blob",
    });
  });

  it('describes tools for the system prompt with strict JSON Schemas', () => {
    const [echo] = createToolset(demoTools).descriptions;
    expect(echo).toEqual({
      name: 'echo',
      description: 'Returns its text unchanged.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
    });
  });

  it('refuses two tools with one name', () => {
    expect(() => createToolset([...demoTools, ...demoTools])).toThrow('Two tools are named "echo"');
  });
});
