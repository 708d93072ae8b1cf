import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAgentFile } from './load-agent-file.js';

const fixture = (path: string) => fileURLToPath(new URL(`testing/${path}`, import.meta.url));

describe('loadAgentFile', () => {
  it("gives a TypeScript agent file's settings, every default applied, and its providers' names", () => {
    expect(loadAgentFile(fixture('counter-agent/agent.ts'))).toEqual({
      name: 'counter',
      model: 'echo:v1',
      modelProfiles: { fast: 'echo:fast' },
      instructions: 'Count the words you are given.',
      toolsets: ['http'],
      fetchHosts: ['example.com'],
      approvals: ['word_count'],
      approvalTimeoutSeconds: 600,
      budget: { maxTokens: 1000 },
      limits: { maxSteps: 7, stepsPerExecution: 3, repeatedCalls: 5, stepsWithoutProgress: 6 },
      maxConcurrency: 4,
      context: { windowTokens: 64_000, compactAt: 0.7, summaryModel: 'echo:brief' },
      prices: { 'echo:v1': { input: 1, output: 2 } },
      script: 'script.json',
      lambdaTools: [],
      mcpServers: {},
      providers: ['echo'],
      tools: [
        {
          name: 'word_count',
          description: 'Counts the words in a text.',
          parameters: expect.objectContaining({ properties: { text: { type: 'string' } } }),
          approval: false,
          sequential: false,
          idempotent: expect.any(Boolean),
          timeoutMs: expect.any(Number),
        },
      ],
    });
  });

  it("gives its MCP servers' urls and the secrets their headers name, each once, never a header's value", () => {
    expect(loadAgentFile(fixture('mcp-agent.ts')).mcpServers).toEqual({
      github: { url: 'https://api.githubcopilot.com/mcp/', secrets: ['mcp/github'] },
      linear: {
        url: 'https://mcp.linear.app/mcp',
        secrets: ['arn:aws:secretsmanager:eu-west-1:123456789012:secret:mcp/linear-AbCdEf'],
      },
      docs: { url: 'https://docs.example.com/mcp', secrets: [] },
    });
  });

  it('loads an agent file as the CLI does: top-level await and import.meta.url work', () => {
    const settings = loadAgentFile(fixture('esm-agent/agent.ts'));
    const prompt = readFileSync(fixture('esm-agent/prompt.txt'), 'utf8');
    expect(settings.instructions).toBe(prompt.repeat(50));
    expect(settings.lambdaTools.map((tool) => tool.functionName)).toEqual([
      'order-lookup',
      'arn:aws:lambda:eu-west-1:210987654321:function:refunds:live',
    ]);
  });

  it('names the file and what to fix, in one line, when its default export is not an agent', () => {
    const file = fixture('not-an-agent.ts');
    expect(() => loadAgentFile(file)).toThrow(
      `AgentStep prop agent: could not load an agent from ${file} (its default export, made by defineAgent from @agentstep/runtime): Invalid agent definition: name: must be 1–64 letters, digits, "_" or "-", from a letter; tools: Invalid input: expected array, received string`,
    );
  });
});
