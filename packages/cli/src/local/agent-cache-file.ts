import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { CliIo } from '../io/cli-io.js';

/**
 * Where the synthesized loop is cached: named after the running code, so a change to the sources
 * (which rebuilds the CLI bundle under a new path) can never reuse a stale definition.
 */
export function agentCacheFile(io: CliIo): string {
  const version = createHash('sha256')
    .update(import.meta.url)
    .digest('hex')
    .slice(0, 16);
  return join(io.dataDir, 'cache', `agent-${version}.json`);
}
