import { describeTool, type ToolOutcome } from '@agentstep/protocol';
import { z } from 'zod';

interface DemoTool {
  name: string;
  description: string;
  input: z.ZodType;
  run(args: Record<string, unknown>): Promise<unknown>;
}

/** The demo's tools: `echo`, `sleep` and `fail`, as the durable loop will offer them with `--tools demo`. */
export const DEMO_TOOLS: readonly DemoTool[] = [
  {
    name: 'echo',
    description: 'Returns its text unchanged.',
    input: z.strictObject({ text: z.string() }),
    run: async ({ text }) => text,
  },
  {
    name: 'sleep',
    description: 'Waits ms milliseconds, then returns value.',
    input: z.strictObject({ ms: z.number().int().min(0).max(10_000), value: z.string() }),
    run: ({ ms, value }) => new Promise((resolve) => setTimeout(() => resolve(value), Number(ms))),
  },
  {
    name: 'fail',
    description: 'Always fails with the given message.',
    input: z.strictObject({ message: z.string() }),
    run: async ({ message }) => {
      throw new Error(String(message));
    },
  },
];

/** The demo tools as the system prompt lists them. */
export const DEMO_TOOL_DESCRIPTIONS = DEMO_TOOLS.map(describeTool);

/** Runs one call: validated before any tool code runs, a thrown error becomes a failure result. */
export async function runDemoCall(name: string, args: unknown): Promise<ToolOutcome> {
  const tool = DEMO_TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined) return { tool: name, status: 'failure', content: `Unknown tool '${name}'.` };
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return { tool: name, status: 'failure', content: z.prettifyError(parsed.error) };
  try {
    return { tool: name, status: 'success', content: await tool.run(parsed.data as Record<string, unknown>) };
  } catch (error) {
    return { tool: name, status: 'failure', content: error instanceof Error ? error.message : String(error) };
  }
}
