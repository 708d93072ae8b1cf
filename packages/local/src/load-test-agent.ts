import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAgent } from './load-agent.js';
import type { SynthesizedAgent } from './synthesize-agent.js';

/**
 * The synthesized loop with its default props, synthesized once per test run and shared by its
 * workers: cached in the temporary folder, which the run's setup makes anew and removes
 * (test/setup/temp-root.ts), so no run reads a loop synthesized from older sources.
 */
export function loadTestAgent(): Promise<SynthesizedAgent> {
  return loadAgent(join(tmpdir(), 'agentstep-test-agent.json'));
}
