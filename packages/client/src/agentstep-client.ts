import type {
  ApprovalDecided,
  ApprovalDecision,
  ApprovalsList,
  EventsPage,
  EventsQuery,
  ForkRequest,
  GateDecided,
  GateDecision,
  ListQuery,
  PendingApproval,
  SessionForked,
  SessionSummary,
  SessionsList,
  SessionsQuery,
  ToolDescription,
  ToolsList,
  TurnAccepted,
  TurnOptions,
  TurnQueued,
  TurnRequest,
  TurnWithdrawn,
  WorkflowAccepted,
  WorkflowRequest,
  WorkflowRunSummary,
  WorkflowRunsList,
} from './api-shapes.js';
import { followStream, type StreamOptions } from './follow-stream.js';
import { readApiError } from './read-api-error.js';
import type { StreamItem } from './stream-item.js';

/** Where the API is and how to call it. */
export interface ClientOptions {
  /** The API's address, e.g. `http://127.0.0.1:3000` as `agentstep serve` prints it. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; a function is asked before every request. @default none */
  token?: string | (() => string | Promise<string>);
  /** The fetch to call, e.g. one with a proxy or a timeout. @default globalThis.fetch */
  fetch?: typeof fetch;
}

interface RequestOptions {
  json?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * AgentStep's HTTP API over fetch: start and send turns, read a session and its log, follow its
 * stream, cancel its turn, decide the calls waiting for approval; start, read and follow workflow
 * runs and answer their human gates. Every refusal throws an
 * `AgentStepApiError` with the API's status and code.
 */
export class AgentStepClient {
  readonly #baseUrl: string;
  readonly #token: ClientOptions['token'];
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#token = options.token;
    // A wrapper, not the bare global: browsers refuse a fetch called with another `this`.
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Starts a new session with its first turn (`POST /sessions`). */
  start(body: TurnRequest, options: TurnOptions = {}): Promise<TurnAccepted> {
    return this.#json('POST', '/sessions', { json: body, headers: idempotency(options) });
  }

  /**
   * Starts the next turn of `session`; while one runs, as `body.ifBusy` says: `SessionBusy` (409,
   * the default `reject`), queued behind it (`enqueue`: `{status: "queued", position}`), or started
   * once it is cancelled (`interrupt`).
   */
  send(session: string, body: TurnRequest, options: TurnOptions = {}): Promise<TurnAccepted | TurnQueued> {
    return this.#json('POST', `${path(session)}/messages`, { json: body, headers: idempotency(options) });
  }

  /** Withdraws a message queued behind the running turn (`DELETE /sessions/{id}/queue/{turn}`): its turn never starts. */
  withdraw(session: string, turn: string): Promise<TurnWithdrawn> {
    return this.#json('DELETE', `${path(session)}/queue/${encodeURIComponent(turn)}`);
  }

  /**
   * Forks `session` at `body.at` (a turn's end or a batch's results): a new session sharing its log
   * up to there, idle, ready for `send` (`POST /sessions/{id}/fork`). `InvalidForkPoint` (400)
   * names the nearest allowed seqs.
   */
  fork(session: string, body: ForkRequest, options: TurnOptions = {}): Promise<SessionForked> {
    return this.#json('POST', `${path(session)}/fork`, { json: body, headers: idempotency(options) });
  }

  /** The caller's sessions started over the API, newest first, with their summaries (`GET /sessions`). */
  listSessions(query: SessionsQuery = {}): Promise<SessionsList> {
    return this.#json('GET', `/sessions${search(query)}`);
  }

  /** The caller's workflow runs, newest first (`GET /workflows`). */
  listWorkflows(query: ListQuery = {}): Promise<WorkflowRunsList> {
    return this.#json('GET', `/workflows${search(query)}`);
  }

  /** Where `session`'s turns stand and what it has spent; `SessionNotFound` (404) for another tenant's. */
  get(session: string): Promise<SessionSummary> {
    return this.#json('GET', path(session));
  }

  /** One page of `session`'s log, oldest first. */
  events(session: string, page: EventsQuery = {}): Promise<EventsPage> {
    return this.#json('GET', `${path(session)}/events${search(page)}`);
  }

  /**
   * Asks `session`'s running turn to stop (202); `NoTurnRunning` (409) when none runs. The turn's
   * end, with status `cancelled`, arrives on its stream.
   */
  async cancel(session: string): Promise<void> {
    const response = await this.#request('POST', `${path(session)}/cancel`);
    await response.body?.cancel();
  }

  /**
   * The calls of `session` waiting for a person's decision, oldest first: the `approvals` of
   * `GET /sessions/{id}/approvals`, unwrapped.
   */
  async approvals(session: string): Promise<PendingApproval[]> {
    return (await this.#json<ApprovalsList>('GET', `${path(session)}/approvals`)).approvals;
  }

  /** The agent's tools, each with its arguments' JSON Schema (`GET /tools`): what edited arguments must pass. */
  async tools(): Promise<ToolDescription[]> {
    return (await this.#json<ToolsList>('GET', '/tools')).tools;
  }

  /**
   * Approves a waiting call (with edited `args` if need be) or denies it (with a `reason` the model
   * reads). Refused with `AlreadyDecided` (409) once it is settled, `ApprovalNotFound` (404), or
   * `ValidationError` (400) with `fields` such as `args.text` for arguments its tool refuses.
   */
  decide(session: string, approval: string, decision: ApprovalDecision): Promise<ApprovalDecided> {
    const route = `${path(session)}/approvals/${encodeURIComponent(approval)}`;
    return this.#json('POST', route, { json: decision });
  }

  /**
   * `session`'s events as they are logged, then `done` once no turn runs; it reconnects after the last
   * `seq` when a connection drops, so each logged event comes once. Break out of the loop to leave early.
   */
  stream(session: string, options: StreamOptions = {}): AsyncGenerator<StreamItem, void, undefined> {
    return this.#follow(path(session), session, options);
  }

  /**
   * Starts a workflow run from Agentfile text (or a spec) and inputs (`POST /workflows`): refused with
   * `InvalidWorkflow` (400, each problem in `fields` as `line:column: message`) or `InvalidWorkflowInput`.
   */
  startWorkflow(body: WorkflowRequest, options: TurnOptions = {}): Promise<WorkflowAccepted> {
    return this.#json('POST', '/workflows', { json: body, headers: idempotency(options) });
  }

  /** A workflow run's status, its goals' outputs and its human gates; `WorkflowRunNotFound` (404). */
  workflow(run: string): Promise<WorkflowRunSummary> {
    return this.#json('GET', runPath(run));
  }

  /** The exact document a goal (`goal`, or `goal[agent]`) of the run saw; `GoalNotRun` (404) before it ran. */
  async workflowContext(run: string, goal: string): Promise<string> {
    return (await this.#request('GET', `${runPath(run)}/goals/${encodeURIComponent(goal)}/context`)).text();
  }

  /**
   * Answers a human gate of the run: approve, correct (the goal runs again with the text) or abort.
   * Refused with `AlreadyDecided` (409) once answered, `GateNotFound` (404).
   */
  decideGate(run: string, gate: string, decision: GateDecision): Promise<GateDecided> {
    return this.#json('POST', `${runPath(run)}/gates/${encodeURIComponent(gate)}`, { json: decision });
  }

  /** A workflow run's records as they are logged, then `done` with the run's status once it has ended. */
  streamWorkflow(run: string, options: StreamOptions = {}): AsyncGenerator<StreamItem, void, undefined> {
    return this.#follow(runPath(run), run, options);
  }

  /** Follows the stream under `route`, of the session or run `id`. */
  #follow(route: string, id: string, options: StreamOptions): AsyncGenerator<StreamItem, void, undefined> {
    const open = (lastSeq: number | undefined, signal: AbortSignal) =>
      this.#request('GET', `${route}/stream`, {
        headers: lastSeq === undefined ? {} : { 'last-event-id': String(lastSeq) },
        signal,
      });
    return followStream(id, open, options);
  }

  async #json<T>(method: string, route: string, options: RequestOptions = {}): Promise<T> {
    return (await this.#request(method, route, options)).json() as Promise<T>;
  }

  async #request(method: string, route: string, options: RequestOptions = {}): Promise<Response> {
    const headers = new Headers(options.headers);
    const token = typeof this.#token === 'function' ? await this.#token() : this.#token;
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    if (options.json !== undefined) headers.set('content-type', 'application/json');
    const response = await this.#fetch(`${this.#baseUrl}${route}`, {
      method,
      headers,
      body: options.json === undefined ? null : JSON.stringify(options.json),
      signal: options.signal ?? null,
    });
    if (!response.ok) throw await readApiError(response);
    return response;
  }
}

function path(session: string): string {
  return `/sessions/${encodeURIComponent(session)}`;
}

/** A query string of the fields given (`?after=…&limit=…`), or none. */
function search(query: object): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as Array<[string, unknown]>)
    if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function runPath(run: string): string {
  return `/workflows/${encodeURIComponent(run)}`;
}

function idempotency({ idempotencyKey }: TurnOptions): Record<string, string> {
  return idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey };
}
