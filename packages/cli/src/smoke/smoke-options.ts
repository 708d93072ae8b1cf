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

/** Reads `smoke`'s flags; the region of `--stack` defaults to the AWS environment's. */
export function parseSmokeOptions(args: string[], env: NodeJS.ProcessEnv): SmokeOptions {
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
    const regionOf = region || env.AWS_REGION || env.AWS_DEFAULT_REGION;
    if (!regionOf)
      throw new UsageError(
        '--stack needs a region: set AWS_REGION (or AWS_DEFAULT_REGION), or give --region.',
      );
    return { kind: 'stack', address: { stack, region: regionOf, ...(token ? { token } : {}) }, timeoutMs };
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
