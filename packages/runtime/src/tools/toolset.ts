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
      return tool
        ? { ok: true, tool }
        : { ok: false, message: `Unknown tool '${name}'. Available: ${available}` };
    },
  };
}
