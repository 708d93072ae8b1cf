import { BATCH_TOOL_NAME, type ToolOutcome } from '@agentstep/protocol';
import { createToolset, demoTools, runTool, validateArgs } from '@agentstep/runtime';

/** The demo's tools: the runtime's `echo`, `sleep`, `fail` and `blob`. */
export const demoToolset = createToolset(demoTools);

/** Runs one call as the runtime does: validated before any tool code runs (B1), failures as results (B4). */
export async function runDemoCall(name: string, args: unknown, position: number): Promise<ToolOutcome> {
  const found = demoToolset.find(name);
  if (!found.ok) return { tool: name || BATCH_TOOL_NAME, status: 'failure', content: found.message };
  const check = validateArgs(found.tool, args as Record<string, unknown>);
  if (!check.ok) return { tool: name, status: 'failure', content: check.message };
  return runTool(found.tool, check.args, { session: 'demo', turn: 'demo', batch: 'demo', position });
}
