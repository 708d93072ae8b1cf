import type { StoredEvent } from '@agentstep/protocol';
import { userMessageKey } from '@agentstep/runtime';
import type { Context, Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { type ChatBody, type ChatMessage, chatBodySchema } from './chat-body.js';
import { chatDecisions } from './chat-decisions.js';
import {
  decideClientApprovals,
  followedTurn,
  lastApprovalRequest,
  promptOf,
  runningTurn,
  startClientTurn,
} from './client-turns.js';
import { followTurn } from './follow-turn.js';
import { heldParts } from './held-parts.js';
import { OpenBatch } from './open-batch.js';
import { MAX_CONVERSATION_BODY_BYTES, readBody } from './read-body.js';
import { type AddressedSession, addressedSession, existingLog, tenantOf } from './session-access.js';
import { sessionState, sessionStatus } from './session-state.js';
import { storedSession } from './tenants.js';
import type { TurnFollowers } from './turn-followers.js';

/**
 * The AI SDK's chat transport (`DefaultChatTransport`), the chat's id being the session's:
 * `POST /chat` starts a turn with the newest user message (history is the log's, never the
 * client's), or decides the approvals an assistant message answers, and streams that turn as one
 * assistant message (id: the turn) until it ends or waits for a person. `GET /chat/{id}/stream`
 * follows the running turn from its start (`204` when none runs, it waits for a person, or the chat
 * was never written to).
 * A turn whose streams have all been left (the transport's `stop()` aborts its request) is
 * cancelled unless a stream follows it again within `leaveGraceMs` (a reload, a dropped connection).
 * `GET /chat/{id}/messages` is the session as `UIMessage[]`.
 */
export function addChatRoutes(app: Hono, deps: ApiDeps, followers: TurnFollowers): void {
  app.post('/chat', async (c) => {
    const tenant = tenantOf(c);
    const body = await readBody(c, chatBodySchema, { maxBytes: MAX_CONVERSATION_BODY_BYTES });
    const addressed = { tenant, session: body.id, stored: storedSession(tenant, body.id) };
    const newest = body.messages.at(-1) as ChatMessage;
    refuseRewrites(body, newest);
    if (newest.role === 'user') return sendMessage(c, { deps, followers, addressed }, body, newest);
    if (newest.role === 'assistant') return answerApprovals(c, { deps, followers, addressed }, newest);
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
    // A chat nobody has written to has nothing to resume: `useChat({ resume: true })` asks on every
    // page load, with a chat id of its own making, and takes anything but 200 or 204 for an error.
    const events = await deps.log.read(addressed.stored);
    const status = events.length === 0 ? 'idle' : sessionStatus(events);
    const turn = status === 'idle' ? undefined : await runningTurn(deps, addressed);
    // A turn that waits for a person is already with the client, unless a call of it still runs:
    // its outcome is what the client needs before it can answer.
    if (turn === undefined || (status === 'waiting' && !(await callsRunning(deps, addressed, events))))
      return c.body(null, 204);
    const start = events.findLast(({ event }) => event.type === 'user')?.seq ?? 1;
    const turnEvents = events.filter(({ seq }) => seq >= start);
    const following = followedTurn(deps, followers, addressed, turn);
    return followTurn(c, deps, { addressed, turn, events: turnEvents, seen, after: start - 1, ...following });
  });
  app.get('/chat/:id/messages', async (c) => {
    const { events, forkedAt, ...addressed } = await existingLog(c, deps);
    const running = sessionState(events, undefined, forkedAt).running
      ? await runningTurn(deps, addressed)
      : undefined;
    // Loaded when first asked for: the AI SDK's reader is for this route only.
    const { chatMessages } = await import('./chat-messages.js');
    if (running === undefined) return c.json(await chatMessages(events));
    // The outcomes its open batch has so far, then the log again, which holds the decision of any
    // call among them that waited for one: a call refused meanwhile keeps its failure back.
    const batch = new OpenBatch();
    batch.see(events);
    const read = await batch.read(deps.outcomes, addressed.stored);
    if (read.length > 0)
      batch.see(await deps.log.read(addressed.stored, { afterSeq: events.at(-1)?.seq ?? 0 }));
    return c.json(await chatMessages(events, running, batch.take(read)));
  });
}

/** What a chat request runs on: the API's deps, the turns' followers, and the session it addresses. */
interface ChatRequest {
  deps: ApiDeps;
  followers: TurnFollowers;
  addressed: AddressedSession;
}

/** Whether a call of the open batch of `events` that waits for no person has no outcome stored yet. */
async function callsRunning(deps: ApiDeps, { stored }: AddressedSession, events: readonly StoredEvent[]) {
  const batch = new OpenBatch();
  batch.see(events);
  batch.take(await batch.read(deps.outcomes, stored));
  return batch.underway;
}

/** The log only grows: a reply cannot be regenerated, nor a sent message edited. */
function refuseRewrites(body: ChatBody, newest: ChatMessage): void {
  const rewrite =
    body.trigger === 'regenerate-message'
      ? { code: 'RegenerateUnsupported', what: 'a reply cannot be regenerated' }
      : newest.role === 'user' && body.messageId !== undefined
        ? { code: 'EditUnsupported', what: 'a sent message cannot be edited' }
        : undefined;
  if (rewrite === undefined) return;
  throw new ApiError(
    400,
    rewrite.code,
    `Session ${body.id}'s log only grows: ${rewrite.what}. Send a new message instead.`,
  );
}

/** Starts the turn of the newest user message (its id names the turn) and streams it. */
async function sendMessage(c: Context, request: ChatRequest, body: ChatBody, message: ChatMessage) {
  const { deps, followers, addressed } = request;
  const text = message.parts.flatMap((part) =>
    part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
  );
  const prompt = promptOf(text.join('\n'), `messages.${body.messages.length - 1}.parts`);
  const { maxSteps, budget, toolExecution, ifBusy } = body;
  const { turn, after } = await startClientTurn(deps, addressed, {
    scope: 'chat',
    clientId: message.id,
    body: { message: prompt, maxSteps, budget, toolExecution, ifBusy },
  });
  const seen = deps.changes?.version(addressed.stored);
  const events = await deps.log.read(addressed.stored, { afterSeq: after });
  const following = followedTurn(deps, followers, addressed, turn);
  return followTurn(c, deps, { addressed, turn, events, seen, after, ...following });
}

/**
 * Decides the approvals the newest assistant message (the turn's, by its id) answers and streams
 * the rest of the turn as the same message, from the last approval request the client saw, leaving
 * out what the message holds (its own decisions, the outcomes it has).
 */
async function answerApprovals(c: Context, request: ChatRequest, message: ChatMessage) {
  const { deps, followers, addressed } = request;
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
  const after = lastApprovalRequest(events);
  const following = followedTurn(deps, followers, addressed, turn);
  const held = heldParts(message);
  return followTurn(c, deps, { addressed, turn, events: turnEvents, seen, after, held, ...following });
}
