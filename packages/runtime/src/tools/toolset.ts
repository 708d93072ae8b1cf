import { describeTool, type ToolDescription } from '@agentstep/protocol';
import type { Tool } from './define-tool.js';

/** The tools of one agent, by name. */
export interface Toolset {
  /** The tools as the system prompt lists them, in definition order. */
  readonly descriptions: readonly ToolDescription[];
  /** The tool, or the B1 failure message naming the tools that exist. */
  find(name: string): { ok: true; tool: Tool } | { ok: false; message: string };
}

/** Builds a toolset; duplicate names are a definition error. */
export function createToolset(tools: readonly Tool[]): Toolset {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}".`);
    byName.set(tool.name, tool);
  }
  const available = [...byName.keys()].join(', ') || 'none';
  return {
    descriptions: tools.map(describeTool),
    find: (name) => {
      const tool = byName.get(name);
      return tool ? { ok: true, tool } : unknownTool(name, available);
    },
  };
}

/**
 * `base` with `extra` tools (a turn's MCP tools) after its own: `extra` may not reuse a name of
 * `base`'s, and lists after them in the system prompt.
 */
export function toolsetWith(base: Toolset, extra: readonly Tool[]): Toolset {
  if (extra.length === 0) return base;
  const added = createToolset(extra);
  const descriptions = [...base.descriptions, ...added.descriptions];
  const available = descriptions.map(({ name }) => name).join(', ') || 'none';
  return {
    descriptions,
    find: (name) => {
      const found = base.find(name);
      if (found.ok) return found;
      const more = added.find(name);
      return more.ok ? more : unknownTool(name, available);
    },
  };
}

function unknownTool(name: string, available: string): { ok: false; message: string } {
  return { ok: false, message: `Unknown tool '${name}'. Available: ${available}` };
}
