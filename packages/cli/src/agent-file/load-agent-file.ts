import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Agent, checkedAgent, InvalidAgentError, moduleDefault } from '@agentstep/runtime';
import { UsageError } from '../usage-error.js';

/** The name of the agent file every command reads from its working directory when `--agent` names none. */
export const AGENT_FILE = 'agent.ts';

/** A user's agent, loaded from its file. */
export interface LoadedAgentFile {
  agent: Agent;
  /** The file as the user named it (`--agent FILE`, or `agent.ts`), for notices and errors. */
  file: string;
  /** The agent's `script`, resolved from the agent file's folder. @default none */
  script?: string;
}

/**
 * The agent a command runs: the default export of `--agent FILE` (`flag`, from `workingDir`), else
 * of `agent.ts` in `workingDir` if there is one, else none. TypeScript loads without a build step.
 * A file that is missing, does not load, exports no default or no valid agent is a UsageError that
 * names the file and why.
 */
export async function loadAgentFile(
  flag: string | undefined,
  workingDir: string,
): Promise<LoadedAgentFile | undefined> {
  const path = resolve(workingDir, flag ?? AGENT_FILE);
  const file = flag ?? AGENT_FILE;
  if (!existsSync(path)) {
    if (flag === undefined) return undefined;
    throw new UsageError(
      `--agent ${flag}: there is no such file (${path}); name your agent's file, such as --agent agent.ts.`,
    );
  }
  const agent = checkedExport(file, await defaultExport(file, path));
  return { agent, file, ...(agent.script ? { script: resolve(dirname(path), agent.script) } : {}) };
}

async function defaultExport(file: string, path: string): Promise<unknown> {
  let module: { default?: unknown };
  try {
    // Imported only when there is an agent file: tsx registers its loader as it loads.
    const { tsImport } = await import('tsx/esm/api');
    module = await tsImport(pathToFileURL(path).href, import.meta.url);
  } catch (error) {
    throw new UsageError(`${file}: cannot load the agent's file (${loadFailure(error)}).`, { cause: error });
  }
  const exported = moduleDefault(module);
  if (exported === undefined)
    throw new UsageError(
      `${file}: the module has no default export; export default defineAgent({ name, ... }) from '@agentstep/runtime'.`,
    );
  return exported;
}

/**
 * What went wrong loading the file, in one line without its closing period: a syntax error's
 * `file:line:column: ERROR: …` line (tsx's message opens with `Transform failed with 1 error:`),
 * else the message's first line (an `InvalidToolError` names the tool and its rule).
 */
function loadFailure(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n');
  return (lines.find((line) => line.includes('ERROR:')) ?? lines[0] ?? '').replace(/\.$/, '');
}

function checkedExport(file: string, value: unknown): Agent {
  try {
    return checkedAgent(value);
  } catch (error) {
    if (!(error instanceof InvalidAgentError)) throw error;
    throw new UsageError(`${file}: its default export is not a valid agent: ${error.issues.join('; ')}.`, {
      cause: error,
    });
  }
}
