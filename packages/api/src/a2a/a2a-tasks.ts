import { pendingApprovals, type StoredEvent } from '@agentstep/protocol';
import { decideApproval, tenantTag, userMessageKey } from '@agentstep/runtime';
import type { ApiDeps } from '../api-deps.js';
import { ApiError } from '../api-error.js';
import { cancelSessionTurn } from '../cancel-session-turn.js';
import { idsFor, isPublicSessionId } from '../ids.js';
import { mcpTurnEnd } from '../mcp-turn-end.js';
import { refusalOf } from '../refusal-of.js';
import { listSession, startSessionTurn } from '../start-session-turn.js';
import { storedSession } from '../tenants.js';
import { A2aError, taskNotFound } from './a2a-error.js';
import { a2aDecision, a2aMessageText } from './a2a-message-text.js';
import {
  a2aTask,
  a2aTaskId,
  type TaskView,
  TERMINAL_STATES,
  type TurnRead,
  turnOfTaskId,
} from './a2a-task.js';
import type { A2aTask, SendMessageRequest } from './a2a-wire.js';

/** How long a cancel waits for its turn's end to be logged before it answers the task as it stands. */
const CANCEL_WAIT_MS = 5_000;

/** A turn read from its log, with the id its log is stored under. */
export interface StoredTurn extends TurnRead {
  stored: string;
}

/**
 * A tenant's A2A tasks, read from the log and acted on through the API's own use cases: a task is
 * a turn, its context the session. Nothing is kept beside the log, so any server instance answers.
 * Another tenant's task is not found.
 */
export class A2aTasks {
  readonly #deps: ApiDeps;
  readonly #tenant: string;

  constructor(deps: ApiDeps, tenant: string) {
    this.#deps = deps;
    this.#tenant = tenant;
  }

  /** The turn a task id names, its events from its `user` event to its end; `TaskNotFound` otherwise. */
  async read(id: string): Promise<StoredTurn> {
    const ids = turnOfTaskId(id);
    const stored = this.storedOf(id);
    if (ids === undefined) throw taskNotFound(id);
    const begun = await this.#deps.log.appended(stored, userMessageKey(ids.turn));
    if (begun === undefined) throw taskNotFound(id);
    const events = await this.#deps.log.read(stored, { afterSeq: begun.firstSeq - 1 });
    return { ...ids, stored, events: upToItsEnd(events, ids.turn) };
  }

  /** The id the log of a task's session is stored under; `TaskNotFound` for an id of another shape. */
  storedOf(id: string): string {
    const ids = turnOfTaskId(id);
    if (ids === undefined || !isPublicSessionId(ids.session)) throw taskNotFound(id);
    return storedSession(this.#tenant, ids.session);
  }

  /** A task as it stands. */
  async get(id: string, view?: TaskView): Promise<A2aTask> {
    return a2aTask(await this.read(id), view);
  }

  /**
   * Acts on a message: one that names a task answers it (the task must wait for input: each call
   * it names, or every waiting one, is approved or denied); any other starts a turn, in the session
   * its `contextId` names (a new one of that id, or of the server's choosing without one). A
   * message sent again (the same `messageId`) starts nothing twice. Answers the task's id.
   */
  async send({ message }: SendMessageRequest): Promise<string> {
    if (message.role !== 'ROLE_USER')
      throw new A2aError('invalidParams', 'Invalid params for SendMessage: message.role must be ROLE_USER.');
    if (message.taskId !== undefined) return this.#answer(message.taskId, message);
    const text = a2aMessageText(message.parts);
    const context = message.contextId;
    if (context !== undefined && !isPublicSessionId(context))
      throw new A2aError(
        'invalidParams',
        `Invalid params for SendMessage: message.contextId must be 1 to 100 letters, digits, ".", "_" or "-".`,
      );
    const ids = idsFor(`${context ?? ''}\n${message.messageId}`, 'a2a');
    const session = context ?? ids.session();
    const turn = ids.turn();
    const stored = storedSession(this.#tenant, session);
    const isNew = (await this.#deps.log.read(stored)).length === 0;
    await startSessionTurn(this.#deps, { message: text }, { tenant: this.#tenant, session, turn });
    if (isNew) await listSession(this.#deps, this.#tenant, session);
    return a2aTaskId(session, turn);
  }

  /**
   * The task once it settles: ended, or waiting for a person; as it stands when `deadline` (ms since
   * the epoch) passes first, or `signal` aborts (the client left).
   */
  async settled(id: string, view: TaskView, deadline: number, signal?: AbortSignal): Promise<A2aTask> {
    const read = await this.read(id);
    if (isSettled(a2aTask(read))) return a2aTask(read, view);
    const after = read.events.at(-1)?.seq ?? 0;
    const watch = { deadline, stopAt: isApprovalRequest, ...(signal ? { signal } : {}) };
    await mcpTurnEnd(this.#deps, { ...read, after }, watch).catch((error: unknown) => {
      // The client left: nobody reads the task, and nothing went wrong.
      if (!signal?.aborted) throw error;
    });
    return this.get(id, view);
  }

  /**
   * Cancels the task's turn and answers the task once its end is logged (or as it stands after a
   * few seconds). A canceled task is answered as it is; one that ended otherwise cannot be canceled.
   */
  async cancel(id: string): Promise<A2aTask> {
    const read = await this.read(id);
    const { state } = a2aTask(read).status;
    if (state === 'TASK_STATE_CANCELED') return a2aTask(read);
    if (TERMINAL_STATES.has(state))
      throw new A2aError('taskNotCancelable', `Task ${id} has ended (${state}): it cannot be canceled.`);
    try {
      await cancelSessionTurn(this.#deps, read.stored, read.session, read.turn);
    } catch (error) {
      // The turn ended on its own meanwhile: the task says how.
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
    const after = read.events.at(-1)?.seq ?? 0;
    await mcpTurnEnd(this.#deps, { ...read, after }, { deadline: Date.now() + CANCEL_WAIT_MS });
    return this.get(id);
  }

  /** The turns of a session (of the tenant's), oldest first; none for a session it does not have. */
  async ofSession(session: string): Promise<TurnRead[]> {
    if (!isPublicSessionId(session)) return [];
    const stored = storedSession(this.#tenant, session);
    const [events, holder] = await Promise.all([this.#deps.log.read(stored), this.#deps.log.holder(stored)]);
    return sessionTurns(session, events, holder?.turn);
  }

  /** The tenant's sessions, newest first, at most `limit`. */
  async sessions(limit: number): Promise<string[]> {
    const entries = await this.#deps.directory.list(tenantTag(this.#tenant), 'session');
    return entries.slice(0, limit).map(({ id }) => id);
  }

  async #answer(id: string, message: SendMessageRequest['message']): Promise<string> {
    const read = await this.read(id);
    if (message.contextId !== undefined && message.contextId !== read.session)
      throw new A2aError(
        'invalidParams',
        `Invalid params for SendMessage: task ${id} is of context ${read.session}, not ${message.contextId}.`,
      );
    const { state } = a2aTask(read).status;
    if (state !== 'TASK_STATE_INPUT_REQUIRED')
      throw new A2aError(
        'unsupportedOperation',
        TERMINAL_STATES.has(state)
          ? `Task ${id} has ended (${state}): send a message without taskId, with contextId ${read.session}, to continue the conversation.`
          : `Task ${id} is working and waits for nobody: follow it with SubscribeToTask, or cancel it.`,
      );
    const { body, approval } = a2aDecision(message.parts);
    const waiting = pendingApprovals(read.events).filter(
      ({ id: each }) => approval === undefined || each === approval,
    );
    if (waiting.length === 0)
      throw new A2aError('invalidParams', `Task ${id} has no call waiting for approval ${approval}.`);
    const log = await this.#deps.log.read(read.stored);
    for (const { id: each } of waiting) {
      const decision = { session: read.stored, approval: each, by: this.#tenant, body, events: log };
      await decideApproval(decision, this.#deps).catch((error: unknown) => {
        throw refusalOf(error, read.session);
      });
    }
    return id;
  }
}

/** Whether a task has ended or waits for a person: a blocking send answers then. */
export function isSettled(task: A2aTask): boolean {
  return TERMINAL_STATES.has(task.status.state) || task.status.state === 'TASK_STATE_INPUT_REQUIRED';
}

function isApprovalRequest({ event }: StoredEvent): boolean {
  return event.type === 'approval' && event.payload.status === 'requested';
}

/** The events up to the turn's `turn_end` (those of later turns left out). */
function upToItsEnd(events: readonly StoredEvent[], turn: string): StoredEvent[] {
  const end = events.findIndex(({ event }) => event.type === 'turn_end' && event.payload.turn === turn);
  return end === -1 ? [...events] : events.slice(0, end + 1);
}

/**
 * A session's log cut into its turns: each from its `user` event, named by the first `turn_start`
 * or `turn_end` in it; the last, while it has logged neither, by the turn holding the session
 * (`running`).
 */
function sessionTurns(session: string, events: readonly StoredEvent[], running?: string): TurnRead[] {
  const turns: TurnRead[] = [];
  let current: { turn?: string; events: StoredEvent[] } | undefined;
  const close = () => {
    if (current?.turn !== undefined) turns.push({ session, turn: current.turn, events: current.events });
  };
  for (const stored of events) {
    const { event } = stored;
    if (event.type === 'user') {
      close();
      current = { events: [] };
    }
    if (current === undefined) continue;
    current.events.push(stored);
    if ((event.type === 'turn_start' || event.type === 'turn_end') && current.turn === undefined)
      current.turn = event.payload.turn;
  }
  if (current !== undefined && current.turn === undefined && running !== undefined) current.turn = running;
  close();
  return turns;
}
