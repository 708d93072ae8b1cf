import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ScriptedModel } from '../model/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { checkedAgent, defineAgent, InvalidAgentError } from './define-agent.js';

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words in a text.',
  input: z.object({ text: z.string() }),
  handler: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
});

describe('defineAgent', () => {
  it('applies the defaults: the scripted model, no toolsets, no approvals, no budget', () => {
    const agent = defineAgent({ name: 'counter', tools: [wordCount] });
    expect(agent).toMatchObject({
      name: 'counter',
      model: 'scripted',
      toolsets: [],
      approvals: [],
      budget: {},
      limits: {},
      providers: [],
    });
    expect(agent.tools[0]).toBe(wordCount);
    expect(Object.isFrozen(agent)).toBe(true);
  });

  it("accepts a model of the agent's own provider, and keeps the provider as given", () => {
    class EchoProvider {
      readonly name = 'echo';
      readonly description = 'Answers with a script';
      model() {
        return new ScriptedModel(['hi'], this.name);
      }
    }
    const provider = new EchoProvider();
    const agent = defineAgent({ name: 'echoer', model: 'echo:v1', providers: [provider] });
    expect(agent.providers[0]).toBe(provider);
  });

  it('names every field to fix', () => {
    const define = () =>
      defineAgent({ name: '1 bad', tools: [{ name: 'x' } as never], limits: { maxSteps: 0 } });
    expect(define).toThrow(InvalidAgentError);
    expect(define).toThrow(/name: must be 1–64 letters/);
    expect(define).toThrow(/tools\.0: must be a tool made by defineTool/);
    expect(define).toThrow(/limits\.maxSteps/);
  });

  it('refuses a model no provider it knows serves, the default one or a profile', () => {
    const define = () => defineAgent({ name: 'a', model: 'gpt-4o', modelProfiles: { fast: 'nope:x' } });
    expect(define).toThrow(/model: expected "scripted" or "bedrock:<model>", .*received "gpt-4o"/);
    expect(define).toThrow(/modelProfiles\.fast: .*received "nope:x"/);
  });

  it('refuses an own tool or Lambda tool whose name holds "__", which names the tools of MCP servers', () => {
    const define = () =>
      defineAgent({
        name: 'a',
        tools: [wordCount, { ...wordCount, name: 'github__search' }],
        lambdaTools: [
          { name: 'billing__refund', description: 'Refunds.', parameters: {}, functionName: 'f' },
        ],
      });
    expect(define).toThrow(
      'tools.1.name: "github__search" holds "__", which is reserved for the tools of MCP servers (NAME__TOOL): rename the tool, e.g. "github_search"',
    );
    expect(define).toThrow(/lambdaTools\.0\.name: "billing__refund" holds "__"/);
    expect(
      defineAgent({ name: 'a', mcpServers: { github: { url: 'https://example.com/mcp' } } }),
    ).toBeTruthy();
  });

  it('refuses fields it does not know, as a misspelling would be', () => {
    expect(() => checkedAgent({ name: 'a', instruction: 'typo' })).toThrow(/Unrecognized key: "instruction"/);
  });
});
