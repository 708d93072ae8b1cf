import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';
import type { StackAddress } from './stack-target.js';

/** How long each check may take by default: a deployed stack's first turns start cold. */
const DEFAULT_TIMEOUT_SECONDS = 300;

/** What `agentstep smoke` checks, and how long each check may take. */
export type SmokeOptions = { timeoutMs: number } & (
  | { kind: 'stack'; address: StackAddress }
  | { kind: 'serve'; url: string; token: string | undefined }
);

/** Reads `smoke`'s flags: `--stack NAME` or `--url URL`, one of them. */
export function parseSmokeOptions(args: string[]): SmokeOptions {
  const { values } = parseOptions({
    args,
    options: {
      stack: { type: 'string' },
      url: { type: 'string' },
      region: { type: 'string' },
      token: { type: 'string' },
      timeout: { type: 'string' },
    },
  });
  const { stack, url, region, token } = values;
  const timeoutMs = timeoutOf(values.timeout) * 1000;
  if (stack !== undefined && url === undefined) {
    const address = { stack, ...(region ? { region } : {}), ...(token ? { token } : {}) };
    return { kind: 'stack', address, timeoutMs };
  }
  if (url === undefined || stack !== undefined)
    throw new UsageError(
      'give --stack NAME (a deployed smoke stack) or --url URL (agentstep serve), one of them.',
    );
  if (region !== undefined) throw new UsageError('--region goes with --stack, not --url.');
  return { kind: 'serve', url, token, timeoutMs };
}

function timeoutOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new UsageError(`--timeout takes whole seconds, 1 or more, received "${text}".`);
  return seconds;
}
