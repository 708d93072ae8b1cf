import { describeTool } from '@agentstep/protocol';
import type { A2aAgentSpec } from '../a2a/a2a-agent-spec.js';
import type { McpServerSpec } from '../mcp/mcp-server-spec.js';
import type { Tool } from '../tools/define-tool.js';
import type { Agent } from './define-agent.js';

/** The agent's settings that decide how it behaves, as it runs: the file's with what overrides them. */
export type VersionedSettings = Pick<
  Agent,
  | 'model'
  | 'modelProfiles'
  | 'approvals'
  | 'approvalTimeoutSeconds'
  | 'budget'
  | 'limits'
  | 'context'
  | 'maxConcurrency'
  | 'prices'
  | 'instructions'
  | 'mcpServers'
> &
  Partial<Pick<Agent, 'a2aAgents'>> & { providers: readonly string[] };

/**
 * What an agent's version is the hash of (decision 0040): its instructions, models and profiles,
 * providers (by name), each tool as the model sees it (name, description, JSON Schema) and as the
 * loop runs it (approval, sequential, idempotent, time limit), its MCP servers and remote A2A
 * agents (headers by name: a rotated token is no new version; an agent without remote agents
 * hashes as it did before they existed), approvals, limits, budget, context settings, concurrency,
 * prices, and the state machine's definition. Comments and code layout never reach it; a tool's
 * handler code does not either.
 */
export function agentVersionInputs(
  settings: VersionedSettings,
  tools: readonly Tool[],
  definition: unknown,
): Record<string, unknown> {
  const { mcpServers, a2aAgents = [], ...rest } = settings;
  return {
    ...rest,
    tools: tools.map(versionedTool),
    mcpServers: Object.fromEntries(
      Object.entries(mcpServers).map(([name, spec]) => [name, withHeaderNames(spec)]),
    ),
    ...(a2aAgents.length > 0 ? { a2aAgents: a2aAgents.map(withHeaderNames) } : {}),
    definition,
  };
}

/** A tool as an agent's version counts it: as the model sees it, and as the loop runs it. */
export function versionedTool(tool: Tool): Record<string, unknown> {
  const { approval, sequential, idempotent, timeoutMs } = tool;
  return { ...describeTool(tool), approval, sequential, idempotent, timeoutMs };
}

/** An MCP server or a remote agent as its version counts it: its headers by name only, sorted (values may be secrets). */
function withHeaderNames({ headers, ...spec }: McpServerSpec | A2aAgentSpec): Record<string, unknown> {
  return { ...spec, headers: Object.keys(headers ?? {}).sort() };
}
