import type { TestProject } from 'vitest/node';
import { runCli } from '../support/run-cli.js';
import { RUNS_THE_BINARY } from './layers.js';

/**
 * Builds the CLI's bundle once, before any test starts the binary (its first start after the
 * sources changed builds it): otherwise every test file starting it at once would build its own.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (!project.vitest.projects.some(({ name }) => RUNS_THE_BINARY.has(name))) return;
  const { status, stderr } = await runCli(['--help']);
  if (status !== 0) throw new Error(`agentstep --help exited ${status}: ${stderr}`);
}
