import type { CliIo } from '../io/cli-io.js';
import { parseSessionArgs } from '../local/parse-session-args.js';
import { readStats } from '../local/session-stats.js';

/** `agentstep stats ID`: what the session's local runs cost, as JSON. */
export async function statsCommand(args: string[], io: CliIo): Promise<number> {
  const { session } = parseSessionArgs('stats', args);
  const stats = await readStats(io, session);
  if (stats === undefined) {
    io.stderr(`agentstep stats: no local run of session ${session} is recorded in ${io.dataDir}.\n`);
    return 1;
  }
  io.stdout(`${JSON.stringify(stats, null, 2)}\n`);
  return 0;
}
