import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STEP_BUNDLING } from '@agentstep/cdk';
import { build } from 'esbuild';

/** The repository's `functions/`: one folder per Lambda, each with its `index.ts`. */
const FUNCTIONS = fileURLToPath(new URL('../../functions/', import.meta.url));

/** The folders under `functions/` that hold a Lambda entry point, sorted. */
export function functionFolders(): string[] {
  return readdirSync(FUNCTIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(FUNCTIONS, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Builds each function's bundle as CDK deploys it (`STEP_BUNDLING`: ESM for Node.js 22, the AWS
 * SDK bundled), without its source map, into `folder/<name>/index.mjs`: the file Lambda runs.
 * Returns each bundle's path by folder name.
 */
export async function buildFunctionBundles(
  folder: string,
  names = functionFolders(),
): Promise<Record<string, string>> {
  const built = await Promise.all(
    names.map(async (name) => {
      const outfile = join(folder, name, 'index.mjs');
      await build({
        ...STEP_BUNDLING,
        entryPoints: [join(FUNCTIONS, name, 'index.ts')],
        outfile,
        sourcemap: false,
        logLevel: 'error',
      });
      return [name, outfile] as const;
    }),
  );
  return Object.fromEntries(built);
}
