import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error.js';

/** The session id and `--json` of `events`, `context` and `stats`. */
export function parseSessionArgs(command: string, args: string[]): { session: string; json: boolean } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [session, ...extra] = positionals;
  if (session === undefined || extra.length > 0) throw new UsageError(`${command} takes one session id.`);
  return { session, json: values.json };
}
