import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Budget, ContextSettings, PriceTable } from '@agentstep/protocol';

/** A Lambda function the agent offers as a tool, as synthesis reads it. */
export interface AgentFileLambdaTool {
  readonly name: string;
  /** The function's name or ARN. */
  readonly functionName: string;
}

/** An MCP server of the agent, as synthesis reads it: its url and the secrets it reads, never their values. */
export interface AgentFileMcpServer {
  /** `https://…`, `http://…` or `stdio:COMMAND ARGS…`. */
  readonly url: string;
  /** The secrets (names or ARNs) its headers and its oauth credential name, each once. */
  readonly secrets: readonly string[];
  /** The authorization server its `oauth` client credentials go to, when it has them. */
  readonly oauthIssuer?: string;
}

/** A remote A2A agent of the agent, as synthesis reads it: its url and the secrets it reads, never their values. */
export interface AgentFileA2aAgent {
  readonly name: string;
  /** `https://…` or `http://…`. */
  readonly url: string;
  /** The secrets (names or ARNs) its headers name, each once. */
  readonly secrets: readonly string[];
}

/**
 * What synthesis reads of an agent file: its definition's data fields (every default applied, as
 * `defineAgent` gives them) and its providers' names.
 */
export interface AgentFileSettings {
  /** The agent's name, as traces name it (`gen_ai.agent.name`). */
  readonly name: string;
  readonly model: string;
  readonly modelProfiles: Readonly<Record<string, string>>;
  readonly instructions?: string;
  readonly toolsets: readonly string[];
  readonly fetchHosts: readonly string[];
  readonly approvals: readonly string[];
  readonly approvalTimeoutSeconds?: number;
  readonly budget: Budget;
  readonly limits: {
    readonly maxSteps?: number | undefined;
    readonly stepsPerExecution?: number | undefined;
    readonly repeatedCalls?: number | undefined;
    readonly stepsWithoutProgress?: number | undefined;
  };
  readonly maxConcurrency?: number;
  /** How model steps keep the context within the window; `{}` when the agent sets nothing. */
  readonly context: ContextSettings;
  readonly prices?: PriceTable;
  /** The scripted model's steps: a JSON file, relative to the agent file. */
  readonly script?: string;
  readonly lambdaTools: readonly AgentFileLambdaTool[];
  /** Its MCP servers, by name. */
  readonly mcpServers: Readonly<Record<string, AgentFileMcpServer>>;
  /** Its remote A2A agents; left out when it has none. */
  readonly a2aAgents?: readonly AgentFileA2aAgent[];
  /** The names of the agent's own providers. */
  readonly providers: readonly string[];
  /** The agent's own tools as its version counts them (`versionedTool`): name, description, schema, how they run. */
  readonly tools: readonly Readonly<Record<string, unknown>>[];
}

/** The script that loads the agent file in its own process: `.ts` in the repository (run by tsx), `.js` built. */
const PRINT_AGENT_FILE = fileURLToPath(
  new URL(`print-agent-file${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/** Room for the settings of an agent with long instructions and many tools. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * The settings of the agent an agent file (absolute) exports by default, loaded as `agentstep`
 * loads it (tsx, in a process of its own, so top-level await and `import.meta.url` work as they do
 * there) and checked by `checkedAgent`. Throws an error naming the file and what to fix.
 */
export function loadAgentFile(file: string): AgentFileSettings {
  if (!existsSync(file))
    throw new Error(
      `AgentStep prop agent names ${file}, which does not exist: give your agent file (its default export made by defineAgent), relative to the working directory the CDK app runs in (${process.cwd()}) or absolute.`,
    );
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawnSync(process.execPath, ['--import', tsx, PRINT_AGENT_FILE, file], {
    encoding: 'utf8',
    maxBuffer: MAX_OUTPUT_BYTES,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result = lastLineJson(child.stdout ?? '') as
    | { settings?: AgentFileSettings; error?: string }
    | undefined;
  if (result?.settings) return result.settings;
  const reason =
    result?.error ??
    `its loader exited with ${child.error?.message ?? `code ${child.status}`}: ${lastLine(child.stderr ?? '')}`;
  throw new Error(
    `AgentStep prop agent: could not load an agent from ${file} (its default export, made by defineAgent from @agentstep/runtime): ${reason}`,
    ...(child.error ? [{ cause: child.error }] : []),
  );
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

/** The last line of the loader's output, parsed: what the agent's modules printed comes before it. */
function lastLineJson(stdout: string): unknown {
  try {
    return JSON.parse(lastLine(stdout));
  } catch {
    return undefined;
  }
}
