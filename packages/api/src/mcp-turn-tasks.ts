import type { StoredEvent, TurnEndStatus, WireEventOf } from '@agentstep/protocol';
import { userMessageKey } from '@agentstep/runtime';
import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { cancelSessionTurn } from './cancel-session-turn.js';
import { isPublicSessionId } from './ids.js';
import { isoTime } from './iso-time.js';
import { mcpProgressMessage } from './mcp-progress-message.js';
import { mcpTurnResult } from './mcp-turn-result.js';
import { storedSession } from './tenants.js';

/** How often a client is told to ask again how a task stands (and `tasks/result` reads it again). */
const TASK_POLL_MS = 1000;

/** The MCP task status of an ended turn. */
const TASK_STATUS: Record<TurnEndStatus, Task['status']> = {
  done: 'completed',
  limit: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * A tenant's `ask` tasks, read from the log: a task is a turn, its id `{session}/{turn}`, its
 * status the turn's (working until its `turn_end`), its result what `ask` answers. Nothing is
 * kept beside the log, so any server instance answers `tasks/get`, `tasks/result` and
 * `tasks/cancel` (which cancels the turn); another tenant's task is not found. Tasks are made by
 * `ask` starting a turn, never by `createTask`, and they last as long as the log (`ttl: null`).
 */
export class McpTurnTasks implements TaskStore {
  readonly #deps: ApiDeps;
  readonly #tenant: string;

  constructor(deps: ApiDeps, tenant: string) {
    this.#deps = deps;
    this.#tenant = tenant;
  }

  /** The task id of a turn. */
  static taskId(session: string, turn: string): string {
    return `${session}/${turn}`;
  }

  async createTask(): Promise<Task> {
    throw new Error('A task is a turn of ask: call ask with task to start one.');
  }

  async getTask(taskId: string): Promise<Task | null> {
    const turn = await this.#turnOf(taskId);
    if (turn === undefined) return null;
    const { session, events, end } = turn;
    // The log from the turn's user message on: never empty, and its last event is the turn's while it runs.
    const [first, last] = [events[0]?.event, events.at(-1)?.event];
    if (first === undefined || last === undefined) return null;
    return {
      taskId,
      status: end ? TASK_STATUS[end.payload.status] : 'working',
      statusMessage: end ? end.content : mcpProgressMessage(last, session),
      ttl: null,
      createdAt: isoTime(first.timestamp * 1000),
      lastUpdatedAt: isoTime((end ?? last).timestamp * 1000),
      pollInterval: TASK_POLL_MS,
    };
  }

  async storeTaskResult(): Promise<void> {
    throw new Error('A task’s result is its turn’s, read from the log: nothing is stored.');
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const turn = await this.#turnOf(taskId);
    if (turn === undefined) throw new Error(`Task ${taskId} was not found.`);
    return mcpTurnResult(this.#deps, storedSession(this.#tenant, turn.session), turn);
  }

  /** Cancels the task's turn, and only it, for `cancelled`; a task's other statuses follow its turn alone. */
  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    const turn = await this.#turnOf(taskId);
    if (turn === undefined) throw new Error(`Task ${taskId} was not found.`);
    if (status !== 'cancelled')
      throw new Error(
        `Task ${taskId} is a turn: its status follows the turn, it cannot be set to ${status}.`,
      );
    if (turn.end !== undefined) return;
    const stored = storedSession(this.#tenant, turn.session);
    try {
      await cancelSessionTurn(this.#deps, stored, turn.session, turn.turn);
    } catch (error) {
      // The turn ended on its own meanwhile (a newer turn may run: it is not this task's to cancel).
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
  }

  async listTasks(): Promise<{ tasks: Task[] }> {
    throw new Error(
      'Tasks are not listed: list_sessions lists the sessions, get_session says where one stands.',
    );
  }

  /**
   * The turn a task id names, its events from its user message on, and its end once logged;
   * undefined for an id whose session part is no session id (never read from the store).
   */
  async #turnOf(taskId: string) {
    const at = taskId.lastIndexOf('/');
    const session = taskId.slice(0, at);
    const turn = taskId.slice(at + 1);
    if (!isPublicSessionId(session) || turn === '') return undefined;
    const stored = storedSession(this.#tenant, session);
    const begun = await this.#deps.log.appended(stored, userMessageKey(turn));
    if (begun === undefined) return undefined;
    const events: StoredEvent[] = await this.#deps.log.read(stored, { afterSeq: begun.firstSeq - 1 });
    const end = events
      .map(({ event }) => event)
      .find(
        (event): event is WireEventOf<'turn_end'> => event.type === 'turn_end' && event.payload.turn === turn,
      );
    return { session, turn, events, end };
  }
}
