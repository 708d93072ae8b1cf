import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAgent } from './load-agent.js';
import type { SynthesizedAgent } from './synthesize-agent.js';

/**
 * Where tests cache synthesized loops: in the temporary folder, which a test run's setup makes anew
 * and removes (test/setup/temp-root.ts), so the run's workers share each loop and no run reads one
 * synthesized from older sources.
 */
export function testCacheDir(): string {
  return join(tmpdir(), 'agentstep-test-cache');
}

/** The synthesized loop with its default props, synthesized once per test run (see {@link testCacheDir}). */
export function loadTestAgent(): Promise<SynthesizedAgent> {
  return loadAgent(join(testCacheDir(), 'test-agent.json'));
}
