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

  it('takes remote A2A agents: a name, a url, headers naming secrets, a description and a time limit', () => {
    const research = {
      name: 'research',
      url: 'https://research.example.com',
      headers: { Authorization: { secret: 'RESEARCH_TOKEN', prefix: 'Bearer ' } },
      description: 'Finds sources.',
      timeoutMs: 120_000,
    };
    expect(defineAgent({ name: 'a', a2aAgents: [research] }).a2aAgents).toEqual([research]);
    expect(defineAgent({ name: 'a' }).a2aAgents).toEqual([]);
  });

  it('refuses a remote agent with a bad name or url, a time limit over 240 s, or a written-out secret', () => {
    const define = () =>
      defineAgent({
        name: 'a',
        a2aAgents: [
          { name: '1st', url: 'https://a.example.com' },
          { name: 'b', url: 'ftp://b.example.com' },
          { name: 'c', url: 'https://c.example.com', headers: { Authorization: { value: 'x' } as never } },
          { name: 'd', url: 'https://d.example.com', timeoutMs: 300_000 },
        ],
      });
    expect(define).toThrow(/a2aAgents\.0\.name: a remote agent name is 1–32 letters/);
    expect(define).toThrow(
      /a2aAgents\.1\.url: a remote agent's url is http\(s\):\/\/…, the base its agent card is read under/,
    );
    expect(define).toThrow(/a2aAgents\.2\.headers\.Authorization/);
    expect(define).toThrow(/a2aAgents\.3\.timeoutMs: Too big/);
  });

  it('refuses a remote agent’s name twice, or one an MCP server has: their tools would share a name', () => {
    const define = () =>
      defineAgent({
        name: 'a',
        mcpServers: { docs: { url: 'https://docs.example.com/mcp' } },
        a2aAgents: [
          { name: 'c', url: 'https://c.example.com' },
          { name: 'c', url: 'https://c2.example.com' },
          { name: 'docs', url: 'https://d.example.com' },
        ],
      });
    expect(define).toThrow('a2aAgents.1.name: another remote agent is named "c": give each its own name');
    expect(define).toThrow(
      'a2aAgents.2.name: "docs" names an MCP server too, whose tool "send" would be docs__send as well: rename one',
    );
  });

  it('refuses fields it does not know, as a misspelling would be', () => {
    expect(() => checkedAgent({ name: 'a', instruction: 'typo' })).toThrow(/Unrecognized key: "instruction"/);
  });
});
