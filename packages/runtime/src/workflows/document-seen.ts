import type { GoalPhase } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import { userMessageKey } from '../steps/submit-turn.js';
import { type RunLog, recordsOf } from './run-log.js';

/** The phases whose user message is a goal's or an agent's document. */
const DOCUMENT_PHASES: ReadonlySet<GoalPhase> = new Set(['execute', 'iteration', 'synthesize']);

/**
 * The exact document a goal's latest run saw as its user message (`goal`, or `goal[agent]` for a
 * USING agent's task document), read back from the child session's log; `undefined` when the goal
 * has not run. The EXECUTE, CONVERGE iteration or SYNTHESIZE run (a synthesized USING goal's
 * `goal`), not a supervision phase or corrective retry.
 */
export async function documentSeen(log: RunLog, goal: string, events: EventLog): Promise<string | undefined> {
  const run = recordsOf(log, 'run').findLast(({ record }) => {
    const label = record.agent === undefined ? record.goal : `${record.goal}[${record.agent}]`;
    return label === goal && DOCUMENT_PHASES.has(record.phase);
  });
  if (run === undefined) return undefined;
  const { session, turn } = run.record;
  const appended = await events.appended(session, userMessageKey(turn));
  if (appended === undefined) return undefined;
  const [message] = await events.read(session, { afterSeq: appended.firstSeq - 1 });
  return message?.event.type === 'user' ? message.event.content : undefined;
}
