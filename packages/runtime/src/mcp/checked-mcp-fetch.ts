import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

/** Why a request's answer could not be read: it came, but malformed; or it never came whole. */
export type UnreadableAnswer = 'malformed' | 'lost';

/** The key of the stand-in error's `data` that says why the answer could not be read. */
const UNREADABLE_KEY = 'agentstepUnreadableAnswer';

const STAND_IN_MESSAGES: Record<UnreadableAnswer, string> = {
  malformed: 'The server answered with something that is not a JSON-RPC message.',
  lost: 'The answer was cut off before it came whole.',
};

/**
 * A fetch for the SDK's streamable HTTP client transport that makes every request's answer one the
 * SDK can read and pin on that request. The SDK reports a frame that is not JSON-RPC to no request
 * (the call waits out its time limit), and a stream cut before the answer likewise: here such a
 * frame, or the end of a stream that cannot be resumed and holds no answer, becomes a JSON-RPC
 * error answering that request, which {@link unreadableAnswerOf} recognizes. Everything else passes
 * as it came.
 */
export function checkedMcpFetch(fetch: FetchLike = (url, init) => globalThis.fetch(url, init)): FetchLike {
  return async (url, init) => {
    const id = requestIdOf(init?.body);
    const response = await fetch(url, init);
    if (id === undefined || !response.ok || response.body === null) return response;
    const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type === 'text/event-stream')
      return withBody(response, checkedEvents(response.body, id, init?.signal));
    if (type === 'application/json') return withBody(response, await checkedJson(response, id));
    return response;
  };
}

/** Why the answer that failed a request could not be read, when {@link checkedMcpFetch} stood in for it. */
export function unreadableAnswerOf(error: unknown): UnreadableAnswer | undefined {
  if (!(error instanceof McpError) || typeof error.data !== 'object' || error.data === null) return undefined;
  const why = (error.data as Record<string, unknown>)[UNREADABLE_KEY];
  return why === 'malformed' || why === 'lost' ? why : undefined;
}

type RequestId = string | number;

/** The id of the JSON-RPC request a body carries; none for a notification, an answer or a batch. */
function requestIdOf(body: RequestInit['body'] | undefined): RequestId | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message: unknown = JSON.parse(body);
    if (!isRecord(message) || typeof message.method !== 'string') return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC error that answers request `id` in place of an answer that could not be read. */
function standIn(id: RequestId, why: UnreadableAnswer): string {
  const error = {
    code: ErrorCode.InternalError,
    message: STAND_IN_MESSAGES[why],
    data: { [UNREADABLE_KEY]: why },
  };
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

function withBody(response: Response, body: ReadableStream<Uint8Array> | string): Response {
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

/** A JSON answer as it came when it holds the answer to `id` and only JSON-RPC, else the stand-in. */
async function checkedJson(response: Response, id: RequestId): Promise<string> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return standIn(id, 'lost');
  }
  try {
    const value: unknown = JSON.parse(text);
    const messages = Array.isArray(value) ? value : [value];
    const readable = messages.every((message) => JSONRPCMessageSchema.safeParse(message).success);
    if (readable && messages.some((message) => isAnswerTo(message, id))) return text;
  } catch {
    // Not JSON: the stand-in below.
  }
  return standIn(id, 'malformed');
}

/**
 * The server-sent events of the answer to `id`, each as it came but for a message event that is
 * not JSON-RPC and could be the answer (the stand-in replaces it); a stream that ends or breaks with
 * no answer and no event id to resume from ends with the stand-in of a lost answer.
 */
function checkedEvents(
  body: ReadableStream<Uint8Array>,
  id: RequestId,
  signal: AbortSignal | null | undefined,
): ReadableStream<Uint8Array> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const events = new EventCheck(id);
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      for (;;) {
        let read: Awaited<ReturnType<typeof reader.read>>;
        try {
          read = await reader.read();
        } catch (error) {
          // Closed by this side, or resumable by the SDK (it has an event id): the break as it is.
          if (signal?.aborted || events.resumable) return controller.error(error);
          controller.enqueue(encoder.encode(events.end()));
          return controller.close();
        }
        if (read.done) {
          const last = events.end();
          if (last !== '') controller.enqueue(encoder.encode(last));
          return controller.close();
        }
        const passed = events.push(read.value);
        if (passed !== '') return controller.enqueue(encoder.encode(passed));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Reads a stream of server-sent events as it comes, line by line, and says what to pass on. */
class EventCheck {
  readonly #id: RequestId;
  #rest = '';
  #lines: string[] = [];
  #answered = false;
  /** An event had an id: the SDK resumes the stream from it when it breaks. */
  resumable = false;

  constructor(id: RequestId) {
    this.#id = id;
  }

  /** The events that `text` completes, as they are to be passed on. */
  push(text: string): string {
    const all = this.#rest + text;
    // A `\r` at the end may be the first half of `\r\n`: kept until the next text.
    const held = all.endsWith('\r') ? 1 : 0;
    const lines = all.slice(0, all.length - held).split(/\r\n|\r|\n/);
    this.#rest = (lines.pop() ?? '') + (held ? '\r' : '');
    let passed = '';
    for (const line of lines) {
      if (line === '') passed += this.#dispatch();
      else this.#lines.push(line);
    }
    return passed;
  }

  /** What to pass on at the end of the stream: the stand-in of a lost answer, if none came. */
  end(): string {
    if (this.#answered || this.resumable) return '';
    this.#answered = true;
    return `data: ${standIn(this.#id, 'lost')}\n\n`;
  }

  #dispatch(): string {
    const lines = this.#lines;
    this.#lines = [];
    if (lines.length === 0) return '';
    let type = '';
    const data: string[] = [];
    for (const line of lines) {
      const { field, value } = fieldOf(line);
      if (field === 'data') data.push(value);
      else if (field === 'event') type = value;
      else if (field === 'id' && value !== '' && !value.includes('\0')) this.resumable = true;
    }
    const passed = `${lines.join('\n')}\n\n`;
    const text = data.join('\n');
    if ((type !== '' && type !== 'message') || text === '') return passed;
    const verdict = this.#verdict(text);
    if (verdict === 'other') return passed;
    this.#answered = true;
    if (verdict === 'answer') return passed;
    const kept = lines.filter((line) => fieldOf(line).field !== 'data');
    return `${[...kept, `data: ${standIn(this.#id, 'malformed')}`].join('\n')}\n\n`;
  }

  /**
   * `answer` for JSON-RPC answering this request; `other` for JSON-RPC that does not, or for a
   * message that names a method or another request (the SDK reports it, as ever); `malformed` for
   * anything else, which stands where this request's answer would.
   */
  #verdict(text: string): 'answer' | 'other' | 'malformed' {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return 'malformed';
    }
    if (JSONRPCMessageSchema.safeParse(value).success)
      return isAnswerTo(value, this.#id) ? 'answer' : 'other';
    if (isRecord(value) && ('method' in value || ('id' in value && String(value.id) !== String(this.#id))))
      return 'other';
    return 'malformed';
  }
}

/** A line of an event as its field and value (one space after the colon is not part of the value). */
function fieldOf(line: string): { field: string; value: string } {
  const colon = line.indexOf(':');
  if (colon === -1) return { field: line, value: '' };
  const value = line.slice(colon + 1);
  return { field: line.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value };
}

function isAnswerTo(message: unknown, id: RequestId): boolean {
  return (
    isRecord(message) && ('result' in message || 'error' in message) && String(message.id) === String(id)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
