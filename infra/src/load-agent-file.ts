import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// biome-ignore lint/style/noRestrictedImports: the agent file's definition is checked by its own schema at synthesis.
import { type Agent, checkedAgent } from '@agentstep/runtime';
import { buildSync } from 'esbuild';

/**
 * The agent an agent file (absolute) exports by default, loaded synchronously as synthesis needs:
 * bundled by esbuild into a CommonJS file of a temporary folder, required, checked by shape. Throws
 * an error naming the file and what to fix.
 */
export function loadAgentFile(file: string): Agent {
  if (!existsSync(file))
    throw new Error(
      `AgentStep prop agent names ${file}, which does not exist: give your agent file (its default export made by defineAgent), relative to the CDK app's folder (${process.cwd()}) or absolute.`,
    );
  const folder = mkdtempSync(join(tmpdir(), 'agentstep-agent-'));
  try {
    const outfile = join(folder, 'agent.cjs');
    buildSync({
      entryPoints: [file],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile,
      logLevel: 'silent',
    });
    const exported = createRequire(outfile)(outfile) as { default?: unknown };
    return checkedAgent(exported.default);
  } catch (error) {
    throw new Error(
      `AgentStep prop agent: could not load an agent from ${file} (its default export, made by defineAgent from @agentstep/runtime): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
