import { describeTool } from '@agentstep/protocol';
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
> & { providers: readonly string[] };

/**
 * What an agent's version is the hash of (decision 0040): its instructions, models and profiles,
 * providers (by name), each tool as the model sees it (name, description, JSON Schema) and as the
 * loop runs it (approval, sequential, idempotent, time limit), its MCP servers (headers by name:
 * a rotated token is no new version), approvals, limits, budget, context settings, concurrency,
 * prices, and the state machine's definition. Comments and code layout never reach it; a tool's
 * handler code does not either.
 */
export function agentVersionInputs(
  settings: VersionedSettings,
  tools: readonly Tool[],
  definition: unknown,
): Record<string, unknown> {
  const { mcpServers, ...rest } = settings;
  return {
    ...rest,
    tools: tools.map(versionedTool),
    mcpServers: Object.fromEntries(
      Object.entries(mcpServers).map(([name, spec]) => [name, versionedMcpServer(spec)]),
    ),
    definition,
  };
}

/** A tool as an agent's version counts it: as the model sees it, and as the loop runs it. */
export function versionedTool(tool: Tool): Record<string, unknown> {
  const { approval, sequential, idempotent, timeoutMs } = tool;
  return { ...describeTool(tool), approval, sequential, idempotent, timeoutMs };
}

/** An MCP server as its version counts it: its header values left out. */
function versionedMcpServer({ headers, ...spec }: McpServerSpec): Record<string, unknown> {
  return { ...spec, headers: Object.keys(headers ?? {}).sort() };
}
