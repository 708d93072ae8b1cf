import type { ToolOutcome } from '@agentstep/protocol';
import type { Tool, ToolContext } from './define-tool.js';

/**
 * Runs one validated call and always returns an outcome (B4): a throw, a time-out or an output
 * that is not JSON becomes a failure whose message says what happened.
 */
export async function runTool(
  tool: Tool,
  args: Record<string, unknown>,
  context: Omit<ToolContext, 'signal'>,
): Promise<ToolOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`${tool.name} did not finish within ${tool.timeoutMs} ms and was stopped.`));
    }, tool.timeoutMs);
  });
  try {
    const output = await Promise.race([
      Promise.resolve(tool.handler(args, { ...context, signal: controller.signal })),
      timedOut,
    ]);
    return { tool: tool.name, status: 'success', content: asJson(output) };
  } catch (error) {
    return { tool: tool.name, status: 'failure', content: errorMessage(error) };
  } finally {
    clearTimeout(timer);
  }
}

function asJson(output: unknown): unknown {
  if (output === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(output));
  } catch (error) {
    throw new Error(`The tool returned a value that is not JSON (${errorMessage(error)}).`);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
