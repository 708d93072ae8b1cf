import { isSessionId, SESSION_ID_RULE } from '@agentstep/protocol';
import { AGENT_OPTIONS, checkAgentFlags } from '../agent-file/agent-flags.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/** The session id and `--json` of `events` and `stats` (which take the agent options and load no agent). */
export function parseSessionArgs(command: string, args: string[]): { session: string; json: boolean } {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, ...AGENT_OPTIONS },
  });
  checkAgentFlags(values);
  const [session, ...extra] = positionals;
  if (session === undefined || extra.length > 0) throw new UsageError(`${command} takes one session id.`);
  return { session: checkedSessionId(session), json: values.json };
}

/** A session id given as an argument, if it is one; a UsageError saying what one is otherwise. */
export function checkedSessionId(session: string): string {
  if (!isSessionId(session))
    throw new UsageError(`a session id is ${SESSION_ID_RULE}; received "${session}".`);
  return session;
}
