import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DefinitionProps } from '@agentstep/local';
import type { CliIo } from '../io/cli-io.js';

/**
 * Where the synthesized loop is cached, in the IO's cache folder: named after the running bundle,
 * whose path carries a stamp of every workspace source, manifest and the lockfile (bin/bundle.js),
 * and when it was written (an installed package upgraded in place keeps its path), so a change to
 * any of them can never reuse a stale definition; and after the props that shape the definition
 * (the only ones: an agent's tools, instructions, limits and budget reach the functions, not it).
 */
export function agentCacheFile(io: Pick<CliIo, 'cacheDir'>, props: DefinitionProps = {}): string {
  const written = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  const version = createHash('sha256')
    .update(`${import.meta.url} ${written}`)
    .digest('hex')
    .slice(0, 16);
  const timeout =
    props.approvalTimeoutSeconds === undefined ? '' : `-approval${props.approvalTimeoutSeconds}s`;
  return join(io.cacheDir, `agent-${version}${timeout}.json`);
}
