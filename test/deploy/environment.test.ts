import type { AgentStepProps } from '@agentstep/cdk';
import { Duration, type Stack } from 'aws-cdk-lib';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AwsStandIn } from '../support/aws-stand-in.js';
import { deployment, existingFunction, lambdaEnvironment } from '../support/deployed-functions.js';
import { functionFolders } from '../support/lambda-bundles.js';
import { LambdaRuntime } from '../support/lambda-runtime.js';

/**
 * The combinations of props the construct's tests deploy, each setting what others leave out:
 * together, every environment variable the construct sets on some function.
 */
const COMBINATIONS: Record<string, AgentStepProps | ((stack: Stack) => AgentStepProps)> = {
  'the defaults': {},
  'no API': { api: false },
  'every toolset, a Lambda tool, approvals, an event bus': (stack) => ({
    builtInTools: ['demo', 'workspace', 'http', 'agents'],
    httpAllowHosts: ['docs.example.com'],
    lambdaTools: [
      {
        name: 'deploy',
        description: 'Deploys.',
        parameters: { type: 'object', properties: {} },
        function: existingFunction(stack, 'Deploy'),
      },
    ],
    approvals: ['*'],
    approvalTimeout: Duration.minutes(5),
    eventBus: EventBus.fromEventBusName(stack, 'Bus', 'jobs'),
  }),
  'a provider model with its key, profiles, context, prices, limits and ceilings': (stack) => ({
    model: 'openai:gpt-4o-mini',
    modelProfiles: { fast: 'openai:gpt-4o-mini' },
    modelApiKey: Secret.fromSecretNameV2(stack, 'Key', 'agent/openai'),
    modelBaseUrl: 'https://llm.example.com/v1',
    instructions: 'Answer briefly.',
    context: { windowTokens: 64_000, strategy: 'drop' },
    prices: { 'openai:gpt-4o-mini': { input: 0.15, output: 0.6 } },
    budget: { maxTokens: 100_000, maxCostUsd: 1, maxWallSeconds: 600 },
    maxSteps: 20,
    stepsPerExecution: 5,
    repeatedCalls: 4,
    stepsWithoutProgress: 6,
    maxConcurrency: 5,
    tenantCeiling: { usdPerDay: 5, tokensPerMonth: 10_000_000 },
  }),
  'traces to a collector, its headers in a secret, content captured': (stack) => ({
    api: false,
    traces: {
      otlpEndpoint: 'https://otlp.example.com',
      headers: Secret.fromSecretNameV2(stack, 'OtlpHeaders', 'agent/otlp-headers'),
      captureContent: true,
    },
  }),
  "traces to CloudWatch's OTLP endpoint": { api: false, traces: 'cloudwatch' },
  'the JWT API with the console and CORS': {
    api: {
      auth: { jwt: { issuer: 'https://issuer.example.com/', audience: 'agentstep' } },
      console: true,
      cors: { allowOrigins: ['https://app.example.com'] },
    },
  },
};

describe("every function's environment, as the construct sets it, under Lambda's Node.js 22", () => {
  let runtime: LambdaRuntime;
  let aws: AwsStandIn;
  /** Each function's bundle, built once for the run (test/setup/function-bundles.ts). */
  const bundles = inject('functionBundles');
  let services: Record<string, string> = {};

  beforeAll(async () => {
    runtime = new LambdaRuntime();
    aws = new AwsStandIn();
    services = await aws.environment();
  });

  afterAll(async () => {
    await Promise.all([runtime?.stop(), aws?.close()]);
  });

  it('runs on Node.js 22', async () => {
    expect(await runtime.version).toMatch(/^v22\./);
  });

  it('loads every bundle with the environment each combination of props gives it, and sets every variable a function reads', async () => {
    const failures: string[] = [];
    const read = new Map<string, Set<string>>();
    const set = new Map<string, Set<string>>();
    for (const [combination, props] of Object.entries(COMBINATIONS))
      for (const fn of deployment(props).functions) {
        const bundle = bundles[fn.folder];
        if (bundle === undefined) throw new Error(`No bundle of functions/${fn.folder}.`);
        const name = `${combination}/${fn.folder}`;
        const { reads = [], error } = await runtime.load(
          name,
          bundle,
          lambdaEnvironment(fn, services, 'test'),
        );
        if (error) failures.push(`${fn.folder} (${combination}): ${error.name}: ${error.message}`);
        const ours = reads.filter((variable) => variable.startsWith('AGENTSTEP_'));
        read.set(fn.folder, new Set([...(read.get(fn.folder) ?? []), ...ours]));
        set.set(fn.folder, new Set([...(set.get(fn.folder) ?? []), ...Object.keys(fn.environment)]));
      }
    expect(failures).toEqual([]);
    // Each function reads its settings from the environment (the recording sees them).
    for (const [folder, variables] of read) expect(variables.size, folder).toBeGreaterThan(0);
    const unset = [...read].flatMap(([folder, variables]) =>
      [...variables]
        .filter((variable) => !set.get(folder)?.has(variable))
        .map((variable) => `${folder}: ${variable}`),
    );
    expect(unset).toEqual([]);
    // Every function of `functions/` is deployed by some combination, and so checked.
    expect([...set.keys()].sort()).toEqual(functionFolders());
  });
});
