import { describeTool } from '@agentstep/protocol';
import type { ModelStepDeps } from '../steps/model-step-deps.js';
import { createToolset, toolsetWith } from '../tools/toolset.js';
import { mcpTool } from './mcp-tool.js';
import { turnMcpTools } from './turn-mcp-tools.js';

/** What of a model step's deps its turn's MCP tools extend. */
type TurnToolsDeps = Pick<ModelStepDeps, 'log' | 'mcp' | 'tools' | 'approvals'>;

/**
 * A model step's deps with its turn's MCP tools (see {@link turnMcpTools}) after the agent's own:
 * in the system prompt, and in the approval rules (an MCP tool's `approval`). Without `mcp`, the
 * deps as they are.
 */
export async function withTurnMcpTools<Deps extends TurnToolsDeps>(
  { session, turn }: { session: string; turn: string },
  deps: Deps,
): Promise<Deps> {
  if (deps.mcp === undefined) return deps;
  const { connections } = deps.mcp;
  const own = new Set(deps.tools.map(({ name }) => name));
  // The agent's own tool keeps its name: an MCP tool of the same name is not offered.
  const tools = (await turnMcpTools(session, turn, { log: deps.log, mcp: deps.mcp })).tools
    .filter(({ name }) => !own.has(name))
    .map((entry) => mcpTool(entry, connections));
  if (tools.length === 0) return deps;
  const approvals = deps.approvals ?? { toolset: createToolset([]) };
  return {
    ...deps,
    tools: [...deps.tools, ...tools.map(describeTool)],
    approvals: { ...approvals, toolset: toolsetWith(approvals.toolset, tools) },
  };
}
