import { defineAgent } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { parseRunOptions } from '../local/run-options.js';
import { withAgentFile } from './with-agent-file.js';

const agent = defineAgent({
  name: 'counter',
  model: 'openai:gpt-4o-mini',
  modelProfiles: { fast: 'openai:gpt-4o-mini', deep: 'anthropic:claude-opus-4' },
  toolsets: ['workspace', 'http'],
  fetchHosts: ['docs.example.com'],
  approvals: ['write_file'],
  approvalTimeoutSeconds: 600,
  budget: { maxTokens: 10_000, maxCostUsd: 2 },
  limits: { maxSteps: 12, stepsPerExecution: 4 },
});
const loaded = { agent, file: 'agent.ts' };

describe('withAgentFile', () => {
  it("takes every setting no flag gives from the agent file, and keeps the file's agent", () => {
    const options = withAgentFile(parseRunOptions(['Hi']), loaded);
    expect(options).toMatchObject({
      model: 'openai:gpt-4o-mini',
      modelProfiles: agent.modelProfiles,
      tools: ['workspace', 'http'],
      allowHosts: ['docs.example.com'],
      approvals: ['write_file'],
      approvalTimeoutSeconds: 600,
      budget: { maxTokens: 10_000, maxCostUsd: 2 },
      maxSteps: 12,
      stepsPerExecution: 4,
      loadedAgent: loaded,
    });
  });

  it('lets each flag given win: lists replace, profiles and budgets merge over the file', () => {
    const flags = parseRunOptions([
      ...['--model', 'scripted', '--tools', 'demo', '--fetch-hosts', '', '--approve', ''],
      ...[
        '--approval-timeout',
        '30',
        '--max-tokens',
        '500',
        '--max-steps',
        '3',
        '--steps-per-execution',
        '2',
      ],
      ...['--model-profile', 'fast=scripted'],
    ]);
    expect(withAgentFile(flags, loaded)).toMatchObject({
      model: 'scripted',
      modelProfiles: { fast: 'scripted', deep: 'anthropic:claude-opus-4' },
      tools: ['demo'],
      allowHosts: [],
      approvals: [],
      approvalTimeoutSeconds: 30,
      budget: { maxTokens: 500, maxCostUsd: 2 },
      maxSteps: 3,
      stepsPerExecution: 2,
    });
  });

  it("lets --context-window and --compaction win over the file's context, whose other settings stay", () => {
    const contextual = {
      agent: defineAgent({
        name: 'compacting',
        context: { windowTokens: 8000, compactAt: 0.6, strategy: 'summarize', summaryModel: 'scripted' },
      }),
      file: 'agent.ts',
    };
    expect(withAgentFile(parseRunOptions([]), contextual).context).toEqual({
      windowTokens: 8000,
      compactAt: 0.6,
      strategy: 'summarize',
      summaryModel: 'scripted',
    });
    const flags = parseRunOptions(['--context-window', '32000', '--compaction', 'drop']);
    expect(withAgentFile(flags, contextual).context).toEqual({
      windowTokens: 32_000,
      compactAt: 0.6,
      strategy: 'drop',
      summaryModel: 'scripted',
    });
    expect(withAgentFile(flags, loaded).context).toEqual({ windowTokens: 32_000, strategy: 'drop' });
  });

  it.each([
    [['--script', 'mine.json'], 'scripted'],
    [['--cassette', 'recorded.json'], 'replay'],
  ])("plays %j over the file's model, as without an agent file", (flags, model) => {
    const options = parseRunOptions(flags);
    expect(options).toMatchObject({ model, modelChosen: true });
    expect(withAgentFile(options, loaded).model).toBe(model);
  });

  it('leaves the options as they are without an agent file (the demo toolset by default)', () => {
    const options = parseRunOptions(['--agent', 'mine.ts']);
    expect(withAgentFile(options, undefined)).toBe(options);
    expect(options).toMatchObject({ agentFile: 'mine.ts', tools: ['demo'], approvals: [] });
  });
});
