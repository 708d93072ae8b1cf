import {
  type ApprovalRecord,
  pendingApprovals,
  type StoredEvent,
  type TurnEndStatus,
  type WireEventOf,
} from '@agentstep/protocol';
import { turnAnswer, turnEndOf } from '@agentstep/runtime';
import { isoTime } from '../iso-time.js';
import { mcpProgressMessage } from '../mcp-progress-message.js';
import type { A2aArtifact, A2aMessage, A2aTask, A2aTaskState, A2aTaskStatus } from './a2a-wire.js';

/** Between a task id's session and turn: no session id holds it. */
const SEPARATOR = '~';

/** The A2A state of an ended turn. */
const END_STATE: Record<TurnEndStatus, A2aTaskState> = {
  done: 'TASK_STATE_COMPLETED',
  limit: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  cancelled: 'TASK_STATE_CANCELED',
};

/** The states a task never leaves. */
export const TERMINAL_STATES: ReadonlySet<A2aTaskState> = new Set(Object.values(END_STATE));

/** A task's id: the turn it is, in the session (its context) it ran in. */
export function a2aTaskId(session: string, turn: string): string {
  return `${session}${SEPARATOR}${turn}`;
}

/** The session and turn a task id names; undefined for an id of another shape. */
export function turnOfTaskId(id: string): { session: string; turn: string } | undefined {
  const at = id.lastIndexOf(SEPARATOR);
  if (at <= 0 || at === id.length - 1) return undefined;
  return { session: id.slice(0, at), turn: id.slice(at + 1) };
}

/** One turn to read as a task: its session as the tenant knows it, and its events from its `user` event on. */
export interface TurnRead {
  session: string;
  turn: string;
  /** From the turn's `user` event to its `turn_end` (the events of later turns are left out). */
  events: readonly StoredEvent[];
}

/** How much of a task to show. */
export interface TaskView {
  /** The newest messages of its history to show: none with 0. @default all */
  historyLength?: number | undefined;
  /** Whether to show its artifacts. @default true */
  includeArtifacts?: boolean | undefined;
}

/**
 * A turn as an A2A task: working while it runs, input-required while a call of it waits for a
 * person (its status message names each waiting call, as text and as data), then completed
 * (`done`, `limit`), failed or canceled. Its history is the user's message, then the answer; its
 * artifact, once it completed, the answer; its metadata the session, the turn and the seq of the
 * last event it reflects (each stream update names the seq of its event: a client that resumes
 * sees them follow on).
 */
export function a2aTask({ session, turn, events }: TurnRead, view: TaskView = {}): A2aTask {
  const id = a2aTaskId(session, turn);
  const ids = { taskId: id, contextId: session };
  const end = turnEndOf(events, turn);
  const answer = turnAnswer(events, turn);
  const status = statusOf(events, end, answer, ids);
  const history: A2aMessage[] = [
    { messageId: `${id}/user`, role: 'ROLE_USER', parts: [{ text: events[0]?.event.content ?? '' }], ...ids },
  ];
  if (end !== undefined && answer !== '')
    history.push({ messageId: `${id}/answer`, role: 'ROLE_AGENT', parts: [{ text: answer }], ...ids });
  const shown =
    view.historyLength === undefined ? history : history.slice(history.length - view.historyLength);
  const artifacts = status.state === 'TASK_STATE_COMPLETED' && answer !== '' ? [answerArtifact(answer)] : [];
  return {
    id,
    contextId: session,
    status,
    ...(view.includeArtifacts === false || artifacts.length === 0 ? {} : { artifacts }),
    ...(shown.length === 0 || view.historyLength === 0 ? {} : { history: shown }),
    metadata: { session, turn, seq: events.at(-1)?.seq ?? 0 },
  };
}

/** The artifact of a completed turn: its answer. */
export function answerArtifact(answer: string): A2aArtifact {
  return { artifactId: 'answer', name: 'answer', parts: [{ text: answer }] };
}

/** Where the turn stands, said in an agent's message. */
function statusOf(
  events: readonly StoredEvent[],
  end: WireEventOf<'turn_end'> | undefined,
  answer: string,
  ids: { taskId: string; contextId: string },
): A2aTaskStatus {
  const last = events.at(-1)?.event;
  const timestamp = last === undefined ? {} : { timestamp: isoTime(last.timestamp * 1000) };
  const say = (parts: A2aMessage['parts'], kind: string): A2aMessage => ({
    messageId: `${ids.taskId}/${kind}`,
    role: 'ROLE_AGENT',
    parts,
    ...ids,
  });
  if (end !== undefined) {
    const state = END_STATE[end.payload.status];
    const text = state === 'TASK_STATE_COMPLETED' && answer !== '' ? answer : end.content;
    return { state, message: say([{ text }], 'status'), ...timestamp };
  }
  const waiting = pendingApprovals(events);
  if (waiting.length > 0)
    return {
      state: 'TASK_STATE_INPUT_REQUIRED',
      message: say(approvalParts(waiting), `approvals/${waiting.length}`),
      ...timestamp,
    };
  const progress = last === undefined ? [] : [{ text: mcpProgressMessage(last, ids.contextId) }];
  return {
    state: 'TASK_STATE_WORKING',
    ...(progress.length ? { message: say(progress, `seq/${events.at(-1)?.seq}`) } : {}),
    ...timestamp,
  };
}

/** What a task waiting for a person says: each waiting call, and how to answer, as text and as data. */
function approvalParts(waiting: readonly ApprovalRecord[]): A2aMessage['parts'] {
  const calls = waiting.map(
    ({ id, tool, args }) => `${tool}(${JSON.stringify(args)}) waits for approval ${id}`,
  );
  const how =
    'Answer with a message on this task: "approve" or "deny" (a reason may follow), or a data part {"decision": "approve" | "deny", "approval"?: ID, "reason"?: TEXT}; without an approval id it decides every waiting call.';
  return [
    { text: `${calls.join('; ')}. ${how}` },
    { data: { approvals: waiting.map(({ id, tool, args }) => ({ approval: id, tool, args })) } },
  ];
}
