import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  isJSONRPCRequest,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

const EVENT_ID_PREFIX = 'req.';

/**
 * The longest request whose stream resumes: its event ids carry it whole, and a `Last-Event-ID`
 * header has room for a few KiB at most on the way (API Gateway allows 10 KiB of headers).
 */
const MAX_RESUMABLE_REQUEST_BYTES = 2048;

/**
 * The SDK transport's event store for the stream of any request but an `ask` call: stores nothing,
 * and names every event of the stream by the request itself, which `GET /mcp` answers anew when
 * the client resumes (every such request reads, or is idempotent: `tasks/cancel`). Undefined for a
 * message that is not one request, a request too long to name an event, or a call of `ask`, whose
 * every call starts a turn.
 */
export function requestEventStore(message: unknown): EventStore | undefined {
  if (!isJSONRPCRequest(message) || startsATurn(message)) return undefined;
  const eventId = `${EVENT_ID_PREFIX}${Buffer.from(JSON.stringify(message)).toString('base64url')}`;
  if (eventId.length > MAX_RESUMABLE_REQUEST_BYTES) return undefined;
  return {
    storeEvent: async () => eventId,
    replayEventsAfter: async () => {
      throw new Error(
        'A request stream is resumed by answering the request anew, not replayed by the transport.',
      );
    },
  };
}

/** The request an event id of a request stream names; undefined for any other id, or one that names an `ask`. */
export function resumedRequest(eventId: string): JSONRPCRequest | undefined {
  if (!eventId.startsWith(EVENT_ID_PREFIX)) return undefined;
  try {
    const message: unknown = JSON.parse(
      Buffer.from(eventId.slice(EVENT_ID_PREFIX.length), 'base64url').toString(),
    );
    return isJSONRPCRequest(message) && !startsATurn(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

function startsATurn(request: JSONRPCRequest): boolean {
  const call = CallToolRequestSchema.safeParse(request);
  return call.success && call.data.params.name === 'ask';
}
