import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildFunctionBundles } from '../support/lambda-bundles.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each function's bundle as CDK deploys it, by folder under `functions/`; empty when no project needs them. */
    functionBundles: Record<string, string>;
  }
}

/**
 * Builds every function's bundle once for the run, when the deploy layer runs: its tests load them
 * in Lambda's Node.js 22 (the run's temporary folder removes them).
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('functionBundles', {});
  if (!project.vitest.projects.some(({ name }) => name === 'deploy')) return;
  project.provide(
    'functionBundles',
    await buildFunctionBundles(mkdtempSync(join(tmpdir(), 'agentstep-bundles-'))),
  );
}
