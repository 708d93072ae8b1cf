import type { SessionForked } from '@agentstep/protocol';
import { forkSession, randomIds } from '@agentstep/runtime';
import { AGENT_OPTIONS, checkAgentFlags } from '../agent-file/agent-flags.js';
import type { CliIo } from '../io/cli-io.js';
import { checkedSessionId } from '../local/parse-session-args.js';
import { readSessionLog } from '../local/read-session-log.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/**
 * `agentstep fork SESSION --at SEQ [--session NEWID] [--json]`: a new session whose log is
 * SESSION's up to SEQ (a turn's end or a batch's results), shared rather than copied; idle, so
 * `agentstep run MESSAGE --session NEWID` starts its next turn. No tool runs.
 */
export async function forkCommand(args: string[], io: CliIo): Promise<number> {
  const { from, at, session, json } = parseForkArgs(args);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const events = await readSessionLog('fork', from, store.log, io);
    if (events === undefined) return 1;
    await forkSession({ from, at, session, events }, store);
    const forked: SessionForked = { session, forkedFrom: { session: from, seq: at } };
    io.stdout(
      json ? `${JSON.stringify(forked)}\n` : `Forked ${from} at seq ${at} into session ${session}.\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

function parseForkArgs(args: string[]) {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      at: { type: 'string' },
      session: { type: 'string' },
      json: { type: 'boolean', default: false },
      ...AGENT_OPTIONS,
    },
  });
  checkAgentFlags(values);
  const [from, ...extra] = positionals;
  if (from === undefined || extra.length > 0) throw new UsageError('fork takes one session id.');
  const at = Number(values.at);
  if (values.at === undefined || !Number.isInteger(at) || at < 1)
    throw new UsageError(
      `fork needs --at SEQ, a seq of the session (1 or more); received "${values.at ?? ''}".`,
    );
  return {
    from: checkedSessionId(from),
    at,
    session: checkedSessionId(values.session ?? randomIds.session()),
    json: values.json,
  };
}
