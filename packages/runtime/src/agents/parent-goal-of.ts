import type { EventLog } from '../event-log/event-log.js';
import { recordsOf, runLogOf } from '../workflows/run-log.js';
import { SUB_AGENT_SEPARATOR } from './sub-agent-ids.js';

/** The parent goal of sub-agents spawned outside any workflow goal (E7's `parent-goal`). */
export const MAIN_GOAL = 'main';

/**
 * The goal a session works for, as a sub-agent's task document names it: the workflow goal whose
 * child run the session (or the sub-agent's ancestor session) is — a `run` record of the workflow
 * run `<run>` names session `<run>.<n>` — else `main`.
 */
export async function parentGoalOf(session: string, log: EventLog): Promise<string> {
  const [root = session] = session.split(SUB_AGENT_SEPARATOR);
  const child = /^(.+)\.\d+$/.exec(root);
  if (child?.[1] === undefined) return MAIN_GOAL;
  const run = runLogOf(child[1], await log.read(child[1]));
  if (run === undefined) return MAIN_GOAL;
  const started = recordsOf(run, 'run').find(({ record }) => record.session === root);
  return started?.record.goal ?? MAIN_GOAL;
}
