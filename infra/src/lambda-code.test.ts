import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { StepLambda } from './step-lambda.js';
import { ECHO_PROVIDER_MARKER, WORD_COUNT_MARKER } from './testing/counter-agent/agent.js';
import { logicalId } from './testing/synth-agent.js';

const COUNTER = fileURLToPath(new URL('testing/counter-agent/agent.ts', import.meta.url));

describe('lambdaCode (bundling at synthesis)', () => {
  // Bundling on, as `cdk synth` does, for three functions only: bundling is what takes the time.
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'Bundled');
  const tools = new StepLambda(stack, 'Tools', { step: 'invoke-tool', agentFile: COUNTER, environment: {} });
  const model = new StepLambda(stack, 'Model', { step: 'model-step', agentFile: COUNTER, environment: {} });
  const start = new StepLambda(stack, 'Start', { step: 'start-turn', environment: {} });
  const assembly = app.synth();
  const resources = assembly.getStackByName(stack.stackName).template.Resources;
  afterAll(() => rmSync(app.outdir, { recursive: true, force: true }));

  /** A function's bundle: `index.mjs` of its asset's folder in the cloud assembly. */
  function bundleOf(lambda: StepLambda): string {
    const key: string = resources[logicalId(lambda.function)].Properties.Code.S3Key;
    return readFileSync(join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs'), 'utf8');
  }

  it("bundles the agent file's own tools into the function given it, and into no other", () => {
    expect(bundleOf(tools)).toContain(WORD_COUNT_MARKER);
    expect(bundleOf(start)).not.toContain(WORD_COUNT_MARKER);
  });

  it("bundles the agent file's own providers into the model functions", () => {
    expect(bundleOf(model)).toContain(ECHO_PROVIDER_MARKER);
    expect(bundleOf(start)).not.toContain(ECHO_PROVIDER_MARKER);
  });

  it('bundles ESM with a source map, defining require for CommonJS dependencies, the AWS SDK inside', () => {
    const code = bundleOf(tools);
    expect(code.startsWith("import { createRequire } from 'node:module'")).toBe(true);
    expect(code).toContain('//# sourceMappingURL=index.mjs.map');
    // Nothing is left to the runtime's SDK: the commands the function sends are in its bundle.
    expect(code).not.toMatch(/from"@aws-sdk\//);
    expect(code).toContain('TransactWriteItems');
    expect(resources[logicalId(tools.function)].Properties).toMatchObject({
      Handler: 'index.handler',
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
    });
  });
});
