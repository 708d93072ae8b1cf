import { buildMessages, type StoredEvent } from '@agentstep/protocol';
import { AGENT_OPTIONS, checkAgentFlags } from '../agent-file/agent-flags.js';
import type { CliIo } from '../io/cli-io.js';
import { checkedSessionId } from '../local/parse-session-args.js';
import { readSessionLog } from '../local/read-session-log.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/**
 * `agentstep context ID [--at SEQ]`: the messages the model would see next, rebuilt from the log
 * (its latest compaction applied), as JSON; with `--at`, as of SEQ: from the events up to it.
 */
export async function contextCommand(args: string[], io: CliIo): Promise<number> {
  const { session, at } = parseContextArgs(args);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const events = await readSessionLog('context', session, store.log, io);
    if (events === undefined) return 1;
    io.stdout(`${JSON.stringify(buildMessages(eventsAt(events, at, session)), null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function parseContextArgs(args: string[]): { session: string; at?: string } {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    // `--json` as `events` and `stats` take it: the messages are JSON either way.
    options: { at: { type: 'string' }, json: { type: 'boolean', default: false }, ...AGENT_OPTIONS },
  });
  checkAgentFlags(values);
  const [session, ...extra] = positionals;
  if (session === undefined || extra.length > 0) throw new UsageError('context takes one session id.');
  return { session: checkedSessionId(session), ...(values.at === undefined ? {} : { at: values.at }) };
}

/** The log as of `--at SEQ` (its events up to SEQ), or whole without it; a SEQ outside the log is a UsageError. */
function eventsAt(
  events: readonly StoredEvent[],
  at: string | undefined,
  session: string,
): readonly StoredEvent[] {
  if (at === undefined) return events;
  const last = events.at(-1)?.seq ?? 0;
  const seq = Number(at);
  if (!/^[0-9]+$/.test(at) || seq < 1 || seq > last)
    throw new UsageError(
      `--at takes a seq of session ${session}'s log, a whole number from 1 to ${last}; received "${at}".`,
    );
  return events.filter((stored) => stored.seq <= seq);
}
