import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync } from 'esbuild';
import { STEP_BUNDLING } from './step-bundling.js';

/** Resolves `@agentstep/functions` subpaths from this package, wherever it is installed. */
const { resolve } = createRequire(import.meta.url);

/** What esbuild starts from: the function's entry, or one that hands it the agent's default export. */
function entryOf(folder: string, agentFile: string | undefined): BuildOptions {
  if (agentFile === undefined) return { entryPoints: [resolve(`@agentstep/functions/entry/${folder}`)] };
  const handlerFor = resolve(`@agentstep/functions/handler-for/${folder}`);
  const contents = [
    `import agent from ${JSON.stringify(agentFile)};`,
    `import { handlerFor } from ${JSON.stringify(handlerFor)};`,
    'export const handler = await handlerFor(agent);',
  ].join('\n');
  return {
    stdin: { contents, resolveDir: dirname(agentFile), sourcefile: `${folder}-with-agent.ts`, loader: 'ts' },
  };
}

/**
 * The code of the AgentStep Lambda in `functions/<folder>` of the installed `@agentstep/functions`,
 * bundled at synthesis by esbuild in-process ({@link STEP_BUNDLING}) into `index.mjs`; with
 * `agentFile` (absolute), bundled with that agent file's default export, its tools and providers.
 * The asset's source is the function's own small folder, all CDK fingerprints when bundling is skipped.
 */
export function lambdaCode(folder: string, agentFile?: string): Code {
  const entry = entryOf(folder, agentFile);
  return Code.fromAsset(dirname(resolve(`@agentstep/functions/entry/${folder}`)), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: bundling is always local. It is required, and with `command` it tells assets
      // apart in CDK's cache (the same folder bundled with another agent file is another asset).
      image: DockerImage.fromRegistry('agentstep-bundles-locally'),
      command: ['esbuild', folder, agentFile ?? ''],
      local: {
        tryBundle(outputDir) {
          bundle(folder, agentFile, { ...STEP_BUNDLING, ...entry, outfile: join(outputDir, 'index.mjs') });
          return true;
        },
      },
    },
  });
}

function bundle(folder: string, agentFile: string | undefined, options: BuildOptions): void {
  try {
    buildSync({ ...options, logLevel: 'silent' });
  } catch (error) {
    const what =
      agentFile === undefined ? `functions/${folder}` : `functions/${folder} with the agent ${agentFile}`;
    throw new Error(
      `AgentStep could not bundle ${what}: ${error instanceof Error ? error.message : String(error)} Fix the file named above, or check that @agentstep/functions is installed.`,
      { cause: error },
    );
  }
}
