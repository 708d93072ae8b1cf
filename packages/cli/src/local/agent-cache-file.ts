import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DefinitionProps } from '@agentstep/local';
import type { CliIo } from '../io/cli-io.js';

/**
 * Where the synthesized loop is cached, in the IO's cache folder: named after the running bundle,
 * whose path carries a stamp of every workspace source, manifest and the lockfile (bin/bundle.js),
 * so a change to any of them can never reuse a stale definition, and after the props that shape
 * the definition.
 */
export function agentCacheFile(io: CliIo, props: DefinitionProps = {}): string {
  const version = createHash('sha256')
    .update(import.meta.url)
    .digest('hex')
    .slice(0, 16);
  const timeout =
    props.approvalTimeoutSeconds === undefined ? '' : `-approval${props.approvalTimeoutSeconds}s`;
  return join(io.cacheDir, `agent-${version}${timeout}.json`);
}
