import { userMessageKey } from '@agentstep/runtime';
import type { Context, Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { type ChatBody, type ChatMessage, chatBodySchema, MAX_CHAT_BODY_BYTES } from './chat-body.js';
import { chatDecisions } from './chat-decisions.js';
import { chatMessages } from './chat-messages.js';
import {
  cancelOnLeave,
  decideClientApprovals,
  runningTurn,
  startClientTurn,
  turnToFollow,
} from './client-turns.js';
import { followTurn } from './follow-turn.js';
import { readBody } from './read-body.js';
import { type AddressedSession, addressedSession, existingLog, tenantOf } from './session-access.js';
import { sessionState, sessionStatus } from './session-state.js';
import { storedSession } from './tenants.js';

/**
 * The AI SDK's chat transport (`DefaultChatTransport`), the chat's id being the session's:
 * `POST /chat` starts a turn with the newest user message (history is the log's, never the
 * client's), or decides the approvals an assistant message answers, and streams that turn as one
 * assistant message (id: the turn) until it ends or waits for a person; the client aborting that
 * response cancels the turn (the transport's `stop()`). `GET /chat/{id}/stream` resumes the running
 * turn from its start (`204` when none runs or it waits for a person; leaving it cancels nothing).
 * `GET /chat/{id}/messages` is the session as `UIMessage[]`.
 */
export function addChatRoutes(app: Hono, deps: ApiDeps): void {
  app.post('/chat', async (c) => {
    const body = await readBody(c, chatBodySchema, { maxBytes: MAX_CHAT_BODY_BYTES });
    const tenant = tenantOf(c);
    const addressed = { tenant, session: body.id, stored: storedSession(tenant, body.id) };
    if (body.trigger === 'regenerate-message')
      throw new ApiError(
        400,
        'RegenerateUnsupported',
        `Session ${body.id}'s log only grows: a reply cannot be regenerated. Send a new message instead.`,
      );
    const newest = body.messages[body.messages.length - 1] as ChatMessage;
    if (newest.role === 'user') return sendMessage(c, deps, addressed, body, newest);
    if (newest.role === 'assistant') return answerApprovals(c, deps, addressed, newest);
    throw new ApiError(
      400,
      'ValidationError',
      `The newest message is a ${newest.role} message: send a user message, or an assistant message answering approvals.`,
      [{ path: `messages.${body.messages.length - 1}.role`, message: 'must be user or assistant' }],
    );
  });
  app.get('/chat/:id/stream', async (c) => {
    const addressed = addressedSession(c);
    // Read before the log: a change in between wakes the stream at once.
    const seen = deps.changes?.version(addressed.stored);
    const { events } = await existingLog(c, deps, addressed);
    if (sessionStatus(events) !== 'running') return c.body(null, 204);
    const turn = await turnToFollow(deps, addressed);
    const start = events.findLast(({ event }) => event.type === 'user')?.seq ?? 1;
    const turnEvents = events.filter(({ seq }) => seq >= start);
    return followTurn(c, deps, { addressed, turn, events: turnEvents, seen, after: start - 1 });
  });
  app.get('/chat/:id/messages', async (c) => {
    const { events, ...addressed } = await existingLog(c, deps);
    const running = sessionState(events).running ? await runningTurn(deps, addressed) : undefined;
    return c.json(await chatMessages(events, running));
  });
}

/** Starts the turn of the newest user message (its id names the turn) and streams it. */
async function sendMessage(
  c: Context,
  deps: ApiDeps,
  addressed: AddressedSession,
  body: ChatBody,
  message: ChatMessage,
) {
  const prompt = message.parts
    .flatMap((part) => (part.type === 'text' ? [String(part.text)] : []))
    .join('\n');
  if (prompt.trim() === '')
    throw new ApiError(400, 'ValidationError', 'The newest user message has no text: send some.', [
      { path: `messages.${body.messages.length - 1}.parts`, message: 'must hold a text part with text' },
    ]);
  const { maxSteps, budget, toolExecution } = body;
  const { turn, after } = await startClientTurn(deps, addressed, {
    scope: 'chat',
    clientId: message.id,
    body: { message: prompt, maxSteps, budget, toolExecution },
  });
  const seen = deps.changes?.version(addressed.stored);
  const events = await deps.log.read(addressed.stored, { afterSeq: after });
  const onAbort = cancelOnLeave(deps, addressed, turn);
  return followTurn(c, deps, { addressed, turn, events, seen, after, onAbort });
}

/**
 * Decides the approvals the newest assistant message (the turn's, by its id) answers and streams
 * the rest of the turn from the log's end before the decisions, as the same message.
 */
async function answerApprovals(c: Context, deps: ApiDeps, addressed: AddressedSession, message: ChatMessage) {
  const { session, stored } = addressed;
  const { events } = await existingLog(c, deps, addressed);
  const turn = message.id;
  if (!sessionState(events).running || (await runningTurn(deps, addressed)) !== turn)
    throw new ApiError(
      409,
      'TurnNotRunning',
      `Turn ${turn} of session ${session} is not running: there is nothing to approve. GET /chat/${session}/messages shows how it ended.`,
    );
  await decideClientApprovals(deps, addressed, chatDecisions(message));
  const start = (await deps.log.appended(stored, userMessageKey(turn)))?.firstSeq ?? 1;
  const seen = deps.changes?.version(stored);
  const turnEvents = await deps.log.read(stored, { afterSeq: start - 1 });
  const after = events.at(-1)?.seq ?? 0;
  const onAbort = cancelOnLeave(deps, addressed, turn);
  return followTurn(c, deps, { addressed, turn, events: turnEvents, seen, after, onAbort });
}
