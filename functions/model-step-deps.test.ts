import { ENV_NAMES } from '@agentstep/protocol';
import { defineAgent, defineTool, ScriptedModel } from '@agentstep/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { modelStepDeps } from './model-step-deps.js';

/** An agent with a tool and a provider of its own, as a function bundled with its file gets it. */
const agent = defineAgent({
  name: 'counter',
  instructions: 'Count the words you are given.',
  providers: [
    {
      name: 'echo',
      description: 'Answers "hi" (a test provider)',
      model: (modelId: string) => new ScriptedModel(['hi'], 'the echo provider', `echo:${modelId}`),
    },
  ],
  tools: [
    defineTool({
      name: 'word_count',
      description: 'Counts the words in a text.',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
    }),
  ],
});

describe('modelStepDeps', () => {
  afterEach(() => vi.unstubAllEnvs());

  function stubEnv(variables: Record<string, string>) {
    for (const [name, value] of Object.entries({
      [ENV_NAMES.table]: 'events',
      [ENV_NAMES.toolsFunction]: 'tools',
      [ENV_NAMES.toolsets]: 'demo',
      ...variables,
    }))
      vi.stubEnv(name, value);
  }

  it("describes the environment's toolsets, then the agent's own tools, and serves models of its providers", async () => {
    stubEnv({ [ENV_NAMES.model]: 'echo:v1', [ENV_NAMES.modelProfiles]: '{"fast":"echo:fast"}' });
    const deps = await modelStepDeps(agent);
    expect(deps.tools.map((tool) => tool.name)).toContain('word_count');
    expect(deps.tools.at(-1)?.name).toBe('word_count');
    expect(deps.model.id).toBe('echo:v1');
    expect(deps.models.fast?.id).toBe('echo:fast');
  });

  it("takes the agent's instructions from the bundle, unless the environment gives others", async () => {
    stubEnv({ [ENV_NAMES.model]: 'echo:v1' });
    expect((await modelStepDeps(agent)).instructions).toBe('Count the words you are given.');
    stubEnv({ [ENV_NAMES.instructions]: 'Count the letters instead.' });
    expect((await modelStepDeps(agent)).instructions).toBe('Count the letters instead.');
  });

  it("gives the model steps the agent's MCP servers (connected on first use), and none without any", async () => {
    stubEnv({ [ENV_NAMES.model]: 'echo:v1' });
    const mcpServers = {
      docs: {
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: { secret: 'mcp/docs', prefix: 'Bearer ' } },
      },
    };
    const deps = await modelStepDeps({ ...agent, mcpServers });
    expect(deps.mcp?.servers).toEqual(mcpServers);
    expect((await modelStepDeps(agent)).mcp).toBeUndefined();
  });

  it("gives the model steps the context settings, the summary model made as a profile's", async () => {
    stubEnv({
      [ENV_NAMES.model]: 'echo:v1',
      [ENV_NAMES.context]:
        '{"windowTokens": 32000, "compactAt": 0.7, "strategy": "summarize", "summaryModel": "echo:brief"}',
    });
    const { context } = await modelStepDeps(agent);
    expect(context).toMatchObject({ windowTokens: 32_000, compactAt: 0.7, strategy: 'summarize' });
    expect(context.summaryModel?.id).toBe('echo:brief');
  });

  it('gives empty context settings when the environment has none: each model by its known window', async () => {
    stubEnv({ [ENV_NAMES.model]: 'echo:v1' });
    expect((await modelStepDeps(agent)).context).toEqual({});
  });

  it.each([
    ['{"windowTokens": 32000', 'not JSON'],
    ['{"windowTokens": 500}', '"windowTokens"'],
    ['{"strategy": "trim"}', '"strategy"'],
  ])('refuses AGENTSTEP_CONTEXT %s at start-up, naming the variable', async (text, problem) => {
    stubEnv({ [ENV_NAMES.model]: 'echo:v1', [ENV_NAMES.context]: text });
    const error = await modelStepDeps(agent).catch((caught: unknown) => caught);
    expect(String(error)).toContain('"AGENTSTEP_CONTEXT"');
    expect(String(error)).toContain(problem);
  });

  it('without an agent, offers the built-in toolsets and providers only', async () => {
    stubEnv({ [ENV_NAMES.model]: 'scripted', [ENV_NAMES.modelScript]: '["Done."]' });
    const deps = await modelStepDeps();
    expect(deps.tools.map((tool) => tool.name)).not.toContain('word_count');
    stubEnv({ [ENV_NAMES.model]: 'echo:v1' });
    await expect(modelStepDeps()).rejects.toThrow(/echo/);
  });
});
