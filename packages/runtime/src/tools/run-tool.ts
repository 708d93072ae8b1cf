import type { ToolOutcome } from '@agentstep/protocol';
import type { Tool, ToolContext } from './define-tool.js';
import { idempotencyKey } from './idempotency-key.js';

/**
 * The most a call's output may store, in UTF-8 bytes of JSON. Outputs are stored whole (B6 caps
 * only what the model sees), in the outcome store and then in the batch's result event; 8 MiB
 * keeps the 5 MB outputs the loop is specified to carry (B6) and bounds the time and memory one
 * call can cost a step, and a larger output is almost always a tool that should return a part, a
 * summary or a reference instead.
 */
export const MAX_TOOL_OUTPUT_BYTES = 8 * 1024 * 1024;

/**
 * Runs one validated call and always returns an outcome (B4): a throw, a time-out, an output that
 * is not JSON or one over {@link MAX_TOOL_OUTPUT_BYTES} becomes a failure that says what happened.
 * The handler's context carries the call's {@link idempotencyKey} and a signal that aborts at the
 * call's time limit, or when `turnEnded` aborts (a cancel closed its turn); a call of a
 * non-idempotent tool stopped either way may have had its effect, and its failure says
 * `outcome unknown: …`.
 */
export async function runTool(
  tool: Tool,
  args: Record<string, unknown>,
  context: Omit<ToolContext, 'signal' | 'idempotencyKey'>,
  turnEnded?: AbortSignal,
): Promise<ToolOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onEnd = () => {};
  const stopped = new Promise<never>((_, reject) => {
    const stop = (why: string) => {
      const text = `${tool.name} ${why} and was stopped`;
      // Settled before the abort: a handler that answers as its signal aborts answers too late.
      reject(
        new Error(tool.idempotent ? `${text}.` : `outcome unknown: ${text}; it may have had its effect.`),
      );
      controller.abort();
    };
    timer = setTimeout(() => stop(`did not finish within ${tool.timeoutMs} ms`), tool.timeoutMs);
    onEnd = () => stop('was running when its turn ended');
    turnEnded?.addEventListener('abort', onEnd, { once: true });
  });
  try {
    const output = await Promise.race([
      Promise.resolve(
        tool.handler(args, {
          ...context,
          idempotencyKey: idempotencyKey(context),
          signal: controller.signal,
        }),
      ),
      stopped,
    ]);
    return { tool: tool.name, status: 'success', content: storable(tool.name, output) };
  } catch (error) {
    return { tool: tool.name, status: 'failure', content: errorMessage(error) };
  } finally {
    clearTimeout(timer);
    turnEnded?.removeEventListener('abort', onEnd);
  }
}

/** The output as the JSON value it will be stored as, if it is JSON and within the cap. */
function storable(tool: string, output: unknown): unknown {
  if (output === undefined) return null;
  let json: string;
  try {
    json = JSON.stringify(output);
  } catch (error) {
    throw new Error(`The tool returned a value that is not JSON (${errorMessage(error)}).`);
  }
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_TOOL_OUTPUT_BYTES) {
    throw new Error(
      `${tool} returned ${bytes} bytes of JSON, over the cap of ${MAX_TOOL_OUTPUT_BYTES} bytes a call's output may store: ask for less, such as a part or a summary.`,
    );
  }
  return JSON.parse(json);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
