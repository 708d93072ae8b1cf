import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { defineAgent } from './define-agent.js';
import { toolsOfAgent } from './tools-of-agent.js';

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts words.',
  input: z.object({ text: z.string() }),
  handler: ({ text }) => ({ words: text.split(/\s+/).length }),
});

describe('toolsOfAgent', () => {
  it('offers the toolsets, then its own tools, then its Lambda tools, each as the model sees it', () => {
    const agent = defineAgent({
      name: 'a',
      toolsets: ['http'],
      fetchHosts: ['docs.example.com'],
      tools: [wordCount],
      lambdaTools: [
        {
          name: 'lookup',
          description: 'Looks an order up.',
          parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
          functionName: 'arn:aws:lambda:eu-west-1:123456789012:function:lookup',
          approval: true,
        },
      ],
    });
    const tools = toolsOfAgent(agent);
    expect(tools.map((tool) => tool.name)).toEqual(['http_fetch', 'word_count', 'lookup']);
    expect(tools[2]).toMatchObject({ approval: true });
    expect(tools[2]?.input.safeParse({ order: 'o-1' }).success).toBe(true);
    expect(tools[2]?.input.safeParse({}).success).toBe(false);
  });

  it('offers a NAME__send tool per remote A2A agent, after the others', () => {
    const agent = defineAgent({
      name: 'a',
      tools: [wordCount],
      a2aAgents: [
        { name: 'research', url: 'https://research.example.com' },
        { name: 'billing', url: 'https://billing.example.com', timeoutMs: 5_000 },
      ],
    });
    const tools = toolsOfAgent(agent);
    expect(tools.map((tool) => tool.name)).toEqual(['word_count', 'research__send', 'billing__send']);
    expect(tools[2]?.description).toContain('the remote agent billing (A2A, at https://billing.example.com)');
  });

  it('refuses a toolset that does not exist, naming the built-in ones', () => {
    expect(() => toolsOfAgent(defineAgent({ name: 'a', toolsets: ['files'] }))).toThrow(
      'Unknown toolset "files". Built-in toolsets: demo, http, workspace, agents.',
    );
  });
});
