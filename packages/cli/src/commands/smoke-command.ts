import type { CliIo } from '../io/cli-io.js';
import { runSmoke } from '../smoke/run-smoke.js';
import { serveTarget } from '../smoke/serve-target.js';
import { parseSmokeOptions } from '../smoke/smoke-options.js';
import { stackTarget } from '../smoke/stack-target.js';

/**
 * `agentstep smoke --stack NAME | --url URL [--region R] [--token T] [--timeout SECONDS]`: checks a
 * deployed smoke stack (or a `serve` of the smoke agent) end to end, one line per check. Exit 0 when
 * every check passed or was skipped, 1 when any failed.
 */
export async function smokeCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseSmokeOptions(args);
  const target =
    options.kind === 'stack' ? await stackTarget(options.address) : serveTarget(options.url, options.token);
  return runSmoke(target, options.timeoutMs, io);
}
