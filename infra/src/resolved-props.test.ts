import { fileURLToPath } from 'node:url';
import { ENV_NAMES } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import type { AgentStep, AgentStepProps } from './agent-step.js';
import { BundledLambda } from './bundled-lambda.js';
import { environmentOf, type SynthesizedAgent, synthAgent } from './testing/synth-agent.js';

/** The fixture agent, setting every field the construct reads. */
const COUNTER = fileURLToPath(new URL('testing/counter-agent/agent.ts', import.meta.url));

function variablesOf({ template, agent }: SynthesizedAgent, step: keyof AgentStep['functions']) {
  return environmentOf(template, agent.functions[step]);
}

describe('AgentStep with an agent file', () => {
  const counter = synthAgent({ agent: COUNTER, api: false });

  it('takes its model, profiles, instructions, concurrency, prices and script for the model functions', () => {
    for (const step of ['model-step', 'advance-turn'] as const) {
      const variables = variablesOf(counter, step);
      expect(variables).toMatchObject({
        [ENV_NAMES.model]: 'echo:v1',
        [ENV_NAMES.instructions]: 'Count the words you are given.',
        [ENV_NAMES.maxConcurrency]: '4',
        [ENV_NAMES.modelScript]: '["Counted."]\n',
      });
      expect(JSON.parse(String(variables[ENV_NAMES.modelProfiles]))).toEqual({ fast: 'echo:fast' });
      expect(JSON.parse(String(variables[ENV_NAMES.prices]))).toEqual({ 'echo:v1': { input: 1, output: 2 } });
    }
    expect(counter.agent.models).toEqual(['echo:v1', 'echo:fast']);
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

  it("lets a prop given override the file's, and ignores one given as undefined", () => {
    // As a JavaScript app passes an unset context value, e.g. `instructions: tryGetContext('x')`.
    const unset = { instructions: undefined } as unknown as AgentStepProps;
    const overridden = synthAgent({
      ...unset,
      agent: COUNTER,
      api: false,
      model: 'scripted',
      builtInTools: ['demo', 'workspace'],
      maxSteps: 9,
      approvalTimeout: Duration.minutes(2),
    });
    expect(variablesOf(overridden, 'model-step')).toMatchObject({
      [ENV_NAMES.model]: 'scripted',
      [ENV_NAMES.toolsets]: 'demo,workspace',
      [ENV_NAMES.instructions]: 'Count the words you are given.',
    });
    expect(variablesOf(overridden, 'invoke-tool')[ENV_NAMES.approvalTimeout]).toBe('120');
    expect(variablesOf(overridden, 'start-turn')[ENV_NAMES.maxSteps]).toBe('9');
    expect(overridden.agent.workspace).toBeDefined();
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
});
