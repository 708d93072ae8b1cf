import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENV_NAMES } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import type { AgentStep, AgentStepProps } from './agent-step.js';
import { BundledLambda } from './bundled-lambda.js';
import { roleStatements } from './testing/role-statements.js';
import { environmentOf, type SynthesizedAgent, synthAgent } from './testing/synth-agent.js';

/** The fixture agent, setting every field the construct reads. */
const COUNTER = fileURLToPath(new URL('testing/counter-agent/agent.ts', import.meta.url));
/** An agent of ESM only (top-level await, `import.meta.url`), with long instructions and Lambda tools. */
const ESM = fileURLToPath(new URL('testing/esm-agent/agent.ts', import.meta.url));

function variablesOf({ template, agent }: SynthesizedAgent, step: keyof AgentStep['functions']) {
  return environmentOf(template, agent.functions[step]);
}

describe('AgentStep with an agent file', () => {
  const counter = synthAgent({ agent: COUNTER, api: false });

  it('takes its model, profiles, concurrency, context, prices and script for the model functions, leaving its instructions in the bundle', () => {
    for (const step of ['model-step', 'advance-turn'] as const) {
      const variables = variablesOf(counter, step);
      expect(variables[ENV_NAMES.instructions]).toBeUndefined();
      expect(variables).toMatchObject({
        [ENV_NAMES.model]: 'echo:v1',
        [ENV_NAMES.maxConcurrency]: '4',
        [ENV_NAMES.modelScript]: '["Counted."]\n',
      });
      expect(JSON.parse(String(variables[ENV_NAMES.modelProfiles]))).toEqual({ fast: 'echo:fast' });
      expect(JSON.parse(String(variables[ENV_NAMES.prices]))).toEqual({ 'echo:v1': { input: 1, output: 2 } });
      expect(JSON.parse(String(variables[ENV_NAMES.context]))).toEqual({
        windowTokens: 64_000,
        compactAt: 0.7,
        summaryModel: 'echo:brief',
      });
    }
    expect(counter.agent.models).toEqual(['echo:v1', 'echo:fast', 'echo:brief']);
  });

  it('takes its toolsets, fetch hosts and approvals for the tools, and its budget and limits for StartTurn', () => {
    expect(variablesOf(counter, 'invoke-tool')).toMatchObject({
      [ENV_NAMES.toolsets]: 'http',
      [ENV_NAMES.httpAllowHosts]: 'example.com',
      [ENV_NAMES.approvals]: 'word_count',
      [ENV_NAMES.approvalTimeout]: '600',
    });
    expect(variablesOf(counter, 'start-turn')).toMatchObject({
      [ENV_NAMES.maxSteps]: '7',
      [ENV_NAMES.stepsPerExecution]: '3',
      [ENV_NAMES.repeatedCalls]: '5',
      [ENV_NAMES.stepsWithoutProgress]: '6',
    });
    expect(JSON.parse(String(variablesOf(counter, 'start-turn')[ENV_NAMES.budget]))).toEqual({
      maxTokens: 1000,
    });
    expect(counter.agent.workspace).toBeUndefined();
  });

  it('bundles the file with the functions that run, describe or list its tools or call its providers', () => {
    const withAgent = synthAgent({ agent: COUNTER });
    const bundledWith = withAgent.agent.node
      .findAll()
      .filter((construct) => construct instanceof BundledLambda && construct.agentFile === COUNTER)
      .map((construct) => construct.node.id);
    expect(bundledWith.sort()).toEqual(['advance-turn', 'api', 'invoke-tool', 'model-step']);
  });

  it("lets a prop given replace the file's, and ignores one given as undefined", () => {
    // As a JavaScript app passes an unset context value, e.g. `maxConcurrency: tryGetContext('x')`.
    const unset = { maxConcurrency: undefined } as unknown as AgentStepProps;
    const overridden = synthAgent({
      ...unset,
      agent: COUNTER,
      api: false,
      model: 'scripted',
      builtInTools: ['demo', 'workspace'],
      instructions: 'Count the letters instead.',
      maxSteps: 9,
      approvalTimeout: Duration.minutes(2),
    });
    expect(variablesOf(overridden, 'model-step')).toMatchObject({
      [ENV_NAMES.model]: 'scripted',
      [ENV_NAMES.toolsets]: 'demo,workspace',
      [ENV_NAMES.instructions]: 'Count the letters instead.',
      [ENV_NAMES.maxConcurrency]: '4',
    });
    expect(variablesOf(overridden, 'invoke-tool')[ENV_NAMES.approvalTimeout]).toBe('120');
    expect(variablesOf(overridden, 'start-turn')[ENV_NAMES.maxSteps]).toBe('9');
    expect(overridden.agent.workspace).toBeDefined();
  });

  it("merges the budget, model profiles and context given over the file's, as the CLI's flags do", () => {
    const merged = synthAgent({
      agent: COUNTER,
      api: false,
      budget: { maxWallSeconds: 60 },
      modelProfiles: { fast: 'echo:faster', deep: 'echo:deep' },
      context: { windowTokens: 32_000, strategy: 'drop' },
    });
    expect(JSON.parse(String(variablesOf(merged, 'advance-turn')[ENV_NAMES.context]))).toEqual({
      windowTokens: 32_000,
      compactAt: 0.7,
      strategy: 'drop',
      summaryModel: 'echo:brief',
    });
    expect(JSON.parse(String(variablesOf(merged, 'start-turn')[ENV_NAMES.budget]))).toEqual({
      maxTokens: 1000,
      maxWallSeconds: 60,
    });
    expect(JSON.parse(String(variablesOf(merged, 'model-step')[ENV_NAMES.modelProfiles]))).toEqual({
      fast: 'echo:faster',
      deep: 'echo:deep',
    });
    expect(merged.agent.models).toEqual(['echo:v1', 'echo:faster', 'echo:deep', 'echo:brief']);
  });

  it("accepts models of the agent's own providers, and refuses one no provider names, as the CLI does", () => {
    expect(() => synthAgent({ agent: COUNTER, api: false, model: 'echo:other' })).not.toThrow();
    expect(() => synthAgent({ agent: COUNTER, api: false, model: 'gpt-4o' })).toThrow(
      'AgentStep prop model is not valid: model: expected "scripted" or "bedrock:<model>", "openai:<model>", "anthropic:<model>", "echo:<model>", received "gpt-4o"',
    );
    expect(() => synthAgent({ model: 'echo:v1' })).toThrow(
      'expected "scripted" or "bedrock:<model>", "openai:<model>", "anthropic:<model>", received "echo:v1"',
    );
  });

  it('fails synthesis on an agent file that is missing or exports no agent, naming it', () => {
    expect(() => synthAgent({ agent: 'no/such/agent.ts' })).toThrow(
      /agent names .*no\/such\/agent\.ts, which does not exist/,
    );
    const notAnAgent = fileURLToPath(new URL('testing/not-an-agent.ts', import.meta.url));
    expect(() => synthAgent({ agent: notAnAgent })).toThrow(
      `AgentStep prop agent: could not load an agent from ${notAnAgent} (its default export, made by defineAgent from @agentstep/runtime): Invalid agent definition: name: must be 1–64 letters`,
    );
  });

  describe('an agent file of ESM only, with instructions past 4 KB and Lambda tools', () => {
    const esm = synthAgent(
      { agent: ESM, api: false },
      { env: { account: '123456789012', region: 'eu-west-1' } },
    );

    it('synthesizes, its instructions left in the bundle, its Lambda tools not in the environment', () => {
      for (const step of ['model-step', 'advance-turn', 'invoke-tool'] as const) {
        expect(variablesOf(esm, step)[ENV_NAMES.instructions]).toBeUndefined();
        expect(variablesOf(esm, step)[ENV_NAMES.lambdaTools]).toBeUndefined();
      }
    });

    it('lets the tools function, and no other, invoke its Lambda tools: a name in its own account and region', () => {
      const invoking = (fn: Parameters<typeof roleStatements>[1]) =>
        roleStatements(esm.template, fn).filter((statement) => statement.Action === 'lambda:InvokeFunction');
      expect(invoking(esm.agent.functions['invoke-tool'])).toEqual([
        {
          Action: 'lambda:InvokeFunction',
          Effect: 'Allow',
          Resource: [
            {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':lambda:eu-west-1:123456789012:function:order-lookup'],
              ],
            },
            'arn:aws:lambda:eu-west-1:210987654321:function:refunds:live',
          ],
        },
      ]);
      for (const step of ['model-step', 'advance-turn', 'start-turn'] as const)
        expect(invoking(esm.agent.functions[step])).toEqual([]);
    });

    it('fails synthesis when the same instructions are given as a prop, naming the function and the variable', () => {
      const instructions = readFileSync(
        new URL('testing/esm-agent/prompt.txt', import.meta.url),
        'utf8',
      ).repeat(50);
      expect(() => synthAgent({ api: false, instructions })).toThrow(
        /^AgentStep function Test\/Agent\/model-step \(functions\/model-step\): its environment would take about \d+ bytes, over Lambda's limit of 4096 for all its variables together; the biggest: AGENTSTEP_INSTRUCTIONS \(4\d\d\d bytes\), .*Move the instructions into your agent file/,
      );
    });
  });
});
