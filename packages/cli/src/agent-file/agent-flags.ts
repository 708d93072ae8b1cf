import type { ParseArgsConfig } from 'node:util';
import { type A2aAgentSpec, a2aAgentSpecSchema } from '@agentstep/runtime/a2a';
import { type McpServerSpec, mcpServerNameSchema, mcpServerSpecSchema } from '@agentstep/runtime/mcp';
import { UsageError } from '../usage-error.js';

/**
 * The options of every command that loads the agent, as parseArgs takes them: which agent file,
 * and the tools it offers over the file's (built-in toolsets, the hosts `http_fetch` may fetch, MCP
 * servers, remote A2A agents). Each command spreads them into its own, so they are spelled and checked once.
 */
export const AGENT_OPTIONS = {
  agent: { type: 'string' },
  tools: { type: 'string' },
  'fetch-hosts': { type: 'string' },
  'allow-hosts': { type: 'string' },
  mcp: { type: 'string', multiple: true, default: [] },
  a2a: { type: 'string', multiple: true, default: [] },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** The commands that load the agent; the others (events, context, fork, stats) take the same options and load none. */
export const AGENT_COMMANDS =
  'run, serve, invoke, workflow run and resume, prompt, mcp, approvals and approve';

/** The help of {@link AGENT_OPTIONS}, one entry per option. */
export const AGENT_OPTIONS_USAGE = `Agent options, the same on every command: the agent is your agent file's default export
(defineAgent from @agentstep/runtime), and these options, with a command's own, override what it
sets (${AGENT_COMMANDS} load it; events, context, fork and stats
take the options too and load no agent).
  --agent FILE               the agent file (default: ./agent.ts if there is one), TypeScript or JS
  --tools demo,workspace,http   built-in toolsets, comma-separated (default: the agent file's, else
                             demo; they replace its toolsets, its own tools stay)
  --fetch-hosts a.com,*.b.com   hosts http_fetch may fetch (it never reaches non-public addresses);
                             its old name --allow-hosts still works
  --mcp NAME=URL             an MCP server's tools as NAME__TOOL (repeatable; replaces the agent
                             file's server of that name whole): URL is http(s)://… (streamable
                             HTTP) or "stdio:COMMAND ARGS…" (a local command, no shell)
  --a2a NAME=URL             a remote A2A agent as the tool NAME__send (repeatable; replaces the
                             agent file's agent of that name): URL is http(s)://…, where its
                             agent card is read (/.well-known/agent-card.json)`;

/** The values of {@link AGENT_OPTIONS}, checked; a list is undefined when its flag was not given. */
export interface AgentFlags {
  /** `--agent FILE`. @default `agent.ts` in the working directory, if there is one */
  agentFile?: string;
  /** `--tools`, split at commas. */
  toolsets?: string[];
  /** `--fetch-hosts`, or its old name `--allow-hosts`, split at commas. */
  fetchHosts?: string[];
  /** `--mcp NAME=URL` by name, over the agent file's servers of the same name. */
  mcpServers: Record<string, McpServerSpec>;
  /** `--a2a NAME=URL`, each name once, over the agent file's remote agents of the same name. */
  a2aAgents: A2aAgentSpec[];
}

/** The parsed {@link AGENT_OPTIONS}, as parseArgs gives them. */
export interface AgentOptionValues {
  agent?: string;
  tools?: string;
  'fetch-hosts'?: string;
  'allow-hosts'?: string;
  mcp: string[];
  a2a: string[];
}

/** Checks the agent options' values; every mistake is a UsageError that says what to fix. */
export function agentFlagsOf(values: AgentOptionValues): AgentFlags {
  const fetchHosts = fetchHostsOf(values['fetch-hosts'], values['allow-hosts']);
  return {
    mcpServers: mcpServersOf(values.mcp),
    a2aAgents: a2aAgentsOf(values.a2a),
    ...(values.agent === undefined ? {} : { agentFile: values.agent }),
    ...(values.tools === undefined ? {} : { toolsets: listOf(values.tools) }),
    ...(fetchHosts === undefined ? {} : { fetchHosts }),
  };
}

/**
 * Checks the agent options given to a command that reads a session and loads no agent (`events`,
 * `context`, `fork`, `stats`): they are taken there too, so one command line's flags work with
 * every command, and a mistake in them is still a UsageError; their values change nothing.
 */
export function checkAgentFlags(values: AgentOptionValues): void {
  agentFlagsOf(values);
}

function listOf(text: string): string[] {
  return text.split(',').filter((item) => item !== '');
}

/** `--fetch-hosts a.com,*.b.com`, or the same under its old name `--allow-hosts`; not both. */
function fetchHostsOf(fetchHosts: string | undefined, allowHosts: string | undefined): string[] | undefined {
  if (fetchHosts !== undefined && allowHosts !== undefined)
    throw new UsageError(
      '--allow-hosts is the old name of --fetch-hosts (the hosts http_fetch may fetch): give one of them, with every host.',
    );
  const hosts = fetchHosts ?? allowHosts;
  return hosts === undefined ? undefined : listOf(hosts);
}

/**
 * The MCP servers of `--mcp NAME=URL` (repeatable; a later NAME wins): `URL` is `https://…` (or
 * `http://`) for a server over streamable HTTP, or `stdio:COMMAND ARGS…` for a local command.
 */
function mcpServersOf(pairs: readonly string[]): Record<string, McpServerSpec> {
  const servers: Record<string, McpServerSpec> = {};
  for (const pair of pairs) {
    const [name = '', url] = pair.split(/=(.*)/s, 2);
    const spec = mcpServerSpecSchema.safeParse({ url });
    if (!mcpServerNameSchema.safeParse(name).success || url === undefined || !spec.success)
      throw new UsageError(
        `--mcp takes NAME=URL (NAME: 1–32 letters, digits, "_" or "-", starting with a letter or "_"; URL: http(s)://… or stdio:COMMAND ARGS…), e.g. --mcp github=https://api.githubcopilot.com/mcp/ or --mcp "memory=stdio:npx -y @modelcontextprotocol/server-memory"; received "${pair}"${spec.success ? '' : ` (${spec.error.issues[0]?.message})`}.`,
      );
    servers[name] = spec.data;
  }
  return servers;
}

/**
 * The remote A2A agents of `--a2a NAME=URL` (repeatable; a later NAME wins): `URL` is `https://…`
 * (or `http://`), the base the agent's card is read under.
 */
function a2aAgentsOf(pairs: readonly string[]): A2aAgentSpec[] {
  const agents = new Map<string, A2aAgentSpec>();
  for (const pair of pairs) {
    const [name, url] = pair.split(/=(.*)/s, 2);
    const spec = a2aAgentSpecSchema.safeParse({ name, url });
    if (!spec.success)
      throw new UsageError(
        `--a2a takes NAME=URL (NAME: 1–32 letters, digits, "_" or "-", starting with a letter or "_"; URL: http(s)://…, where the agent's card is read), e.g. --a2a research=https://research.example.com; received "${pair}" (${spec.error.issues[0]?.message}).`,
      );
    agents.set(spec.data.name, spec.data);
  }
  return [...agents.values()];
}
