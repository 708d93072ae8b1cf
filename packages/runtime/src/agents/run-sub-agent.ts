import { setTimeout as sleep } from 'node:timers/promises';
import {
  renderTaskDocument,
  type StoredEvent,
  type TurnEndStatus,
  type WireEventOf,
} from '@agentstep/protocol';
import { type Clock, systemClock } from '../clock/clock.js';
import type { EventLog } from '../event-log/event-log.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import { turnAnswer, turnEndOf } from '../requests/describe-turn.js';
import { beginTurn } from '../session/begin-turn.js';
import type { ExecutionStarter } from '../session/execution-starter.js';
import { cancelRequested } from '../steps/cancel-requested.js';
import type { ToolContext } from '../tools/define-tool.js';
import { goalFields } from '../workflows/goal-fields.js';
import { parentGoalOf } from './parent-goal-of.js';
import { subAgentIds } from './sub-agent-ids.js';
import type { SubAgentTask } from './sub-agent-task.js';

/** What running sub-agents needs: the stores, and what starts their turns' executions. */
export interface SubAgentDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  starter: ExecutionStarter;
  /** @default the system clock */
  clock?: Clock;
}

/** How a sub-agent runs: its step limit, and how often its log is read for its end. */
export interface SubAgentRun {
  maxSteps: number;
  pollMs: number;
}

/** How a sub-agent's turn ended, as the tool returns it to the model. */
export interface SubAgentResult {
  role: string;
  status: TurnEndStatus;
  /** Its final `respond` text, whole. */
  output: string;
  /** What ended it, when it did not finish (its terminal record's text). */
  message?: string;
  /** With `outputs`: those fields its output's first JSON object gives. */
  fields?: Record<string, unknown>;
}

/**
 * Runs the sub-agent at `index` of a call to its end: a turn in a child session, its user message
 * the bare E7 task document and its persona "You are a ROLE.", started as its own execution of the
 * agent loop; then reads the child's log until the turn has ended. A retried call re-attaches to
 * the same turn (ids from the call; submitting and starting are idempotent) and one that already
 * ended is only read. When the call is stopped (`signal`) or its turn cancelled, the sub-agent is
 * asked to stop too.
 */
export async function runSubAgent(
  task: SubAgentTask,
  at: { context: ToolContext; index: number },
  deps: SubAgentDeps,
  run: SubAgentRun,
): Promise<SubAgentResult> {
  const { context } = at;
  const { session, turn } = subAgentIds(context, at.index);
  const logged = await deps.log.read(session);
  if (turnEndOf(logged, turn) === undefined) await begin(task, context.session, { session, turn }, deps, run);
  const { events, end } = await untilEnd(deps.log, { session, turn, logged }, context, run.pollMs).catch(
    async (error: unknown) => {
      await deps.log.requestCancel(session, turn);
      throw error;
    },
  );
  const { status } = end.payload;
  const output = turnAnswer(events, turn);
  return {
    role: task.role,
    status,
    output,
    ...(status === 'done' ? {} : { message: end.content }),
    ...(task.outputs === undefined ? {} : { fields: goalFields(output, task.outputs).fields }),
  };
}

/** Submits the sub-agent's turn and starts its execution; a start that failed has ended the turn, saying why. */
async function begin(
  task: SubAgentTask,
  parent: string,
  ids: { session: string; turn: string },
  deps: SubAgentDeps,
  run: SubAgentRun,
): Promise<void> {
  const prompt = renderTaskDocument({
    render: 'task',
    // A task document names no workflow.
    workflow: { name: '' },
    task: {
      role: task.role,
      parent_goal: await parentGoalOf(parent, deps.log),
      task: task.task,
      ...(task.outputs === undefined ? {} : { outputs: task.outputs }),
      include_prior: false,
      interpolate: false,
    },
  });
  const request = {
    session: ids.session,
    prompt,
    instructions: `You are a ${task.role}.`,
    limits: { maxSteps: run.maxSteps },
  };
  const idSource = { session: () => ids.session, turn: () => ids.turn };
  try {
    await beginTurn(request, { ...deps, clock: deps.clock ?? systemClock, ids: idSource });
  } catch (error) {
    // beginTurn ends a turn whose execution did not start: its end tells the model why.
    if (!(await hasEnded(deps.log, ids.session, ids.turn))) throw error;
  }
}

async function hasEnded(log: EventLog, session: string, turn: string): Promise<boolean> {
  return turnEndOf(await log.read(session), turn) !== undefined;
}

/**
 * The session's events and the turn's end once it has ended: from the events already `logged`,
 * then reading only new ones every `pollMs`; throws when the call is stopped or the calling turn is
 * asked to stop (a cancel), so that the sub-agent is asked to stop too.
 */
async function untilEnd(
  log: EventLog,
  { session, turn, logged }: { session: string; turn: string; logged: readonly StoredEvent[] },
  caller: Pick<ToolContext, 'session' | 'turn' | 'signal'>,
  pollMs: number,
): Promise<{ events: StoredEvent[]; end: WireEventOf<'turn_end'> }> {
  const events = [...logged];
  for (;;) {
    const end = turnEndOf(events, turn);
    if (end !== undefined) return { events, end };
    if (await cancelRequested(log, caller.session, caller.turn))
      throw new Error(`Turn ${caller.turn} was cancelled: its sub-agent in ${session} was asked to stop.`);
    await sleep(pollMs, undefined, { signal: caller.signal });
    events.push(...(await log.read(session, { afterSeq: events.at(-1)?.seq ?? 0 })));
  }
}
