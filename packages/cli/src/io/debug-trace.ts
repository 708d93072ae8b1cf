/** The environment variable that adds the stack to each failure the CLI reports in one line. */
export const AGENTSTEP_DEBUG = 'AGENTSTEP_DEBUG';

/**
 * With `AGENTSTEP_DEBUG` set (to anything but `''` or `0`), the stack of `error` and of each of its
 * causes, for stderr after the failure's one line; `''` otherwise.
 */
export function debugTrace(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const setting = env[AGENTSTEP_DEBUG];
  if (setting === undefined || setting === '' || setting === '0') return '';
  const traces: string[] = [];
  const seen = new Set<unknown>();
  // The cause is where a wrapped failure happened (the agent file's line, the provider's call).
  for (let current = error; current !== undefined && !seen.has(current); current = causeOf(current)) {
    seen.add(current);
    const trace =
      current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current);
    traces.push(traces.length === 0 ? trace : `Caused by: ${trace}`);
  }
  return `${traces.join('\n')}\n`;
}

function causeOf(error: unknown): unknown {
  return error instanceof Error ? error.cause : undefined;
}
