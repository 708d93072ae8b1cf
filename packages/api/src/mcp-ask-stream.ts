import { randomIds } from '@agentstep/runtime';
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  isJSONRPCNotification,
  type JSONRPCMessage,
  ProgressNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { publicSessionIdSchema } from './ids.js';

const EVENT_ID_PREFIX = 'ask.';

/** The most characters a call's own ids (its JSON-RPC id and progress token) take in an event id. */
const MAX_CLIENT_IDS_CHARS = 512;

const askStreamSchema = z.strictObject({
  /** The JSON-RPC id of the `tools/call`. */
  request: z.union([z.string(), z.number()]),
  /** The call's progress token, when it asked for progress. */
  progressToken: z.union([z.string(), z.number()]).optional(),
  /** The session as the tenant knows it. */
  session: publicSessionIdSchema,
  turn: z.string().min(1).max(100),
});

/**
 * The ask call a POST's stream answers, with the ids its turn runs under, chosen before the call
 * runs: each event id of the stream names them, so that any server instance resumes the stream
 * from the log (decision 0049).
 */
export type AskStream = z.infer<typeof askStreamSchema>;

/** Where a resumed ask stream starts: its call, and how many progress notifications it had sent. */
export interface AskStreamPosition extends AskStream {
  sent: number;
}

/**
 * The ask of a JSON-RPC message, when it is a `tools/call` of `ask` answered on a stream (not as a
 * task), with a new turn id and, unless its arguments name a session, a new session id.
 */
export function askStreamOf(message: unknown): AskStream | undefined {
  const call = CallToolRequestSchema.safeParse(message);
  if (!call.success || call.data.params.name !== 'ask' || call.data.params.task !== undefined)
    return undefined;
  const { id } = message as { id: string | number };
  const session = publicSessionIdSchema.safeParse(call.data.params.arguments?.session);
  const progressToken = call.data.params._meta?.progressToken;
  // Its ids travel in every event id: a call whose own are long is answered, not resumable.
  if (JSON.stringify([id, progressToken ?? null]).length > MAX_CLIENT_IDS_CHARS) return undefined;
  return {
    request: id,
    ...(progressToken === undefined ? {} : { progressToken }),
    session: session.success ? session.data : randomIds.session(),
    turn: randomIds.turn(),
  };
}

/**
 * The SDK transport's event store for an ask stream: stores nothing, and names each event of the
 * stream (the priming event, each progress notification, the answer) by the ask and how many
 * progress notifications were sent up to it. Replaying is `GET /mcp`'s, from the log.
 */
export function askStreamEventStore(stream: AskStream): EventStore {
  let sent = 0;
  return {
    storeEvent: async (_streamId, message) => {
      sent = progressOf(message) ?? sent;
      return askEventId({ ...stream, sent });
    },
    replayEventsAfter: async () => {
      throw new Error('An ask stream is resumed from the log by GET /mcp, not replayed by the transport.');
    },
  };
}

/** The event id of a place in an ask stream. */
export function askEventId(position: AskStreamPosition): string {
  return `${EVENT_ID_PREFIX}${Buffer.from(JSON.stringify(position)).toString('base64url')}`;
}

/** The place an event id of an ask stream names, or undefined for an id this server never gave. */
export function askStreamPosition(eventId: string): AskStreamPosition | undefined {
  if (!eventId.startsWith(EVENT_ID_PREFIX)) return undefined;
  try {
    const json: unknown = JSON.parse(
      Buffer.from(eventId.slice(EVENT_ID_PREFIX.length), 'base64url').toString(),
    );
    const parsed = askStreamSchema.extend({ sent: z.number().int().min(0) }).safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The number of a progress notification; undefined for any other message. */
function progressOf(message: JSONRPCMessage): number | undefined {
  if (!isJSONRPCNotification(message)) return undefined;
  const progress = ProgressNotificationSchema.safeParse(message);
  return progress.success ? progress.data.params.progress : undefined;
}
