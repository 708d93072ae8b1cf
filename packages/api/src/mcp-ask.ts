import { ERROR_NAMES, TURN_END_STATUSES } from '@agentstep/protocol';
import { randomIds } from '@agentstep/runtime';
import type { CallToolResult, CreateTaskResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { ApiDeps } from './api-deps.js';
import { ApiError, sessionNotFound } from './api-error.js';
import { publicSessionIdSchema } from './ids.js';
import type { AskStream } from './mcp-ask-stream.js';
import { mcpProgressMessage } from './mcp-progress-message.js';
import type { McpCallExtra, McpTool } from './mcp-tool.js';
import { mcpTurnEnd } from './mcp-turn-end.js';
import { mcpTurnResult } from './mcp-turn-result.js';
import { McpTurnTasks } from './mcp-turn-tasks.js';
import { MAX_BODY_BYTES } from './read-body.js';
import { listSession, startSessionTurn, type TurnIds } from './start-session-turn.js';
import { storedSession } from './tenants.js';

/**
 * The most UTF-8 bytes `ask`'s message may take: the most any route of the API takes for a message
 * (`MAX_BODY_BYTES`: a chat's newest message, a whole `POST /sessions` body).
 */
export const MAX_ASK_MESSAGE_BYTES = MAX_BODY_BYTES;

/**
 * The largest body `POST /mcp` reads: an `ask` whose message is at its limit, however its client
 * writes it as JSON (each byte a character escaped as `\u0001`, 6 bytes: the most JSON takes), with
 * 4 KiB for the rest of the request.
 */
export const MAX_MCP_BODY_BYTES = 6 * MAX_ASK_MESSAGE_BYTES + 4 * 1024;

const tooLong = `must be at most ${MAX_ASK_MESSAGE_BYTES} bytes as UTF-8`;

const askInput = z.object({
  message: z
    .string()
    .min(1, 'must not be empty')
    // A message has no more characters than bytes: the schema's maxLength, for hosts to read.
    .max(MAX_ASK_MESSAGE_BYTES, tooLong)
    .refine((message) => Buffer.byteLength(message) <= MAX_ASK_MESSAGE_BYTES, {
      message: tooLong,
      when: ({ issues }) => issues.length === 0,
    })
    .describe(
      `What to ask the agent: the turn’s user message, at most ${MAX_ASK_MESSAGE_BYTES} bytes as UTF-8.`,
    ),
  session: publicSessionIdSchema
    .optional()
    .describe('The session to continue, as an earlier ask returned it; a new session when absent.'),
});

const askOutput = z.object({
  session: z.string().describe('The session the turn ran in: pass it to the next ask to continue.'),
  turn: z.string().describe('The turn’s id.'),
  status: z.enum(TURN_END_STATUSES).describe('How the turn ended.'),
  answer: z.string().describe('The turn’s answer: the prose of its last model step that wrote any.'),
});

type AskArgs = z.infer<typeof askInput>;

const DESCRIPTION = [
  'Runs a turn of this agent with your message and returns its answer when the turn ends, with the',
  'session it ran in: pass that session to the next ask to continue the conversation. A call that',
  'needs a person’s approval keeps this ask open until the call is decided through the API',
  '(POST /sessions/{session}/approvals/{id}); progress notifications, when asked for, say so.',
  'A turn still running when the server stops waiting (the API’s stream limit, if it has one) is',
  'an error result naming it: follow it with get_session.',
  'As a task, the task is the turn: tasks/get says where it stands, tasks/result waits for its',
  'answer, tasks/cancel cancels it.',
].join(' ');

/**
 * The tool `ask {message, session?}` for `tenant`: starts a turn (in a new session, or in the
 * tenant's `session`; another tenant's is not found), waits for its end, sending a progress
 * notification for each logged event when the client sent a progress token, and answers with the
 * turn's answer and `{session, turn, status, answer}`. A failed or cancelled turn, or a turn that
 * could not start, is an error result saying why; so is a turn still running when
 * `deps.streamLimitMs` has passed since the call began (the wait stops before the API's stream
 * would be cut), unless the call's stream is resumable: then the stream closes, and the client
 * resumes it with `GET /mcp`. The call's abort stops the wait, never the turn. The call that
 * `stream` names runs its turn under the ids it chose. Called as a task, it answers at once with
 * the turn's task, as `tasks` reads it.
 */
export function mcpAsk(
  deps: ApiDeps,
  tenant: string,
  tasks: McpTurnTasks,
  stream?: AskStream,
): McpTool<typeof askInput> {
  return {
    name: 'ask',
    title: 'Ask the agent',
    description: DESCRIPTION,
    input: askInput,
    output: askOutput,
    call: async (args, extra) => {
      const deadline = Date.now() + (deps.streamLimitMs ?? Number.POSITIVE_INFINITY);
      const chosen = stream?.request === extra.requestId ? stream : undefined;
      const started = await startAsk(deps, tenant, args, chosen);
      const stored = storedSession(tenant, started.session);
      const end = await mcpTurnEnd(
        deps,
        { stored, ...started },
        { onEvent: progressOf(extra, started.session), signal: extra.signal, deadline },
      ).catch((error: unknown) => {
        // The client left: nobody reads the answer, and nothing went wrong.
        if (extra.signal.aborted) return undefined;
        throw error;
      });
      if (end !== undefined) return mcpTurnResult(deps, stored, started);
      // A resumable stream closes instead: its client comes back for the rest (or left already).
      extra.closeSSEStream?.();
      return stillRunning(started);
    },
    task: async (args): Promise<CreateTaskResult> => {
      const { session, turn } = await startAsk(deps, tenant, args);
      const task = await tasks.getTask(McpTurnTasks.taskId(session, turn));
      if (task === null)
        throw new Error(`Turn ${turn} of session ${session} started but its log has no user message.`);
      return { task };
    },
  };
}

/** Sends a progress notification for each logged event, numbered from 1, when the call asked for progress. */
function progressOf(extra: McpCallExtra, session: string) {
  const progressToken = extra._meta?.progressToken;
  let progress = 0;
  return async ({ event }: { event: Parameters<typeof mcpProgressMessage>[0] }) => {
    if (progressToken === undefined) return;
    progress += 1;
    const params = { progressToken, progress, message: mcpProgressMessage(event, session) };
    await extra.sendNotification({ method: 'notifications/progress', params });
  };
}

/**
 * Starts the turn (under the ids `chosen` for it, if any): the ids it runs under, and the last
 * event logged before it.
 */
async function startAsk(
  deps: ApiDeps,
  tenant: string,
  { message, session }: AskArgs,
  chosen?: Pick<AskStream, 'session' | 'turn'>,
): Promise<TurnIds & { after: number }> {
  const turn = chosen?.turn ?? randomIds.turn();
  if (session === undefined) {
    const ids = { tenant, session: chosen?.session ?? randomIds.session(), turn };
    await startSessionTurn(deps, { message }, ids);
    await listSession(deps, tenant, ids.session);
    return { ...ids, after: 0 };
  }
  const last = (await deps.log.read(storedSession(tenant, session))).at(-1);
  if (last === undefined) throw sessionNotFound(session);
  await startSessionTurn(deps, { message }, { tenant, session, turn }).catch((error: unknown) => {
    throw busyInMcpTerms(error, session);
  });
  return { tenant, session, turn, after: last.seq };
}

/** The API's `SessionBusy` refusal, saying what an MCP client does about it; any other error as it is. */
function busyInMcpTerms(error: unknown, session: string): unknown {
  if (!(error instanceof ApiError && error.code === ERROR_NAMES.sessionBusy)) return error;
  return new ApiError(
    error.status,
    error.code,
    `Session ${session} is running a turn: wait for it to end (get_session says where it stands), or cancel it (tasks/cancel of its task, or POST /sessions/${session}/cancel), then ask again.`,
  );
}

/** The error result of an ask whose turn runs on past the time the call may last. */
function stillRunning({ session, turn }: TurnIds): CallToolResult {
  const text = `Turn ${turn} of session ${session} is still running: follow it with get_session, or call ask as a task.`;
  return { content: [{ type: 'text', text }], isError: true };
}
