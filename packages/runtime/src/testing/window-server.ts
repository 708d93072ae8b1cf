import type { ServerResponse } from 'node:http';
import { openAIStream, sseReply } from './provider-streams.js';
import { type RecordingServer, startRecordingServer } from './recording-server.js';

/** One request a {@link WindowServer} received. */
export interface WindowRequest {
  /** Its tokens as the server counts them: a quarter of the characters of its body, rounded up. */
  tokens: number;
  /** A compaction's summary request (its system prompt is AgentStep's summarizing prompt), or a model step. */
  purpose: 'step' | 'summary';
  /** Its messages, the system prompt first. */
  messages: Array<{ role: string; content: string }>;
  /** Whether the server refused it as longer than the window. */
  refused: boolean;
}

/** What a {@link WindowServer} does. */
export interface WindowServerOptions {
  /** Model steps of tool calls in each turn before the answer. */
  stepsPerTurn: number;
  /** About how many characters each `blob` call asks for (a little more each call, so no call repeats). */
  blobBytes: number;
  /** The window its refusals name, in its tokens. */
  windowTokens: number;
  /** Whether to refuse the `n`-th model step request (from 0) as too long. @default never */
  refuse?: (step: number) => boolean;
}

/** A fake OpenAI-compatible server that counts every request as a provider with a context window would. */
export interface WindowServer {
  /** The base URL, as `--base-url` takes it. */
  url: string;
  requests: WindowRequest[];
  close(): Promise<void>;
}

/** AgentStep's summarizing prompt starts so (packages/runtime/src/context/summary-prompt.ts). */
const SUMMARY_PROMPT_START = 'You compact the context';

/**
 * Starts a fake Chat Completions server for compaction's acceptance: each turn it calls the demo
 * `blob` tool `stepsPerTurn` times, then answers; a summary request gets a short summary that
 * quotes nothing; every answer reports `usage.prompt_tokens` as a quarter of the characters it
 * received; the steps `refuse` picks get OpenAI's `context_length_exceeded` refusal.
 */
export async function startWindowServer(options: WindowServerOptions): Promise<WindowServer> {
  const requests: WindowRequest[] = [];
  let steps = 0;
  let stepInTurn = 0;
  let summaries = 0;
  const server: RecordingServer = await startRecordingServer((response, body) => {
    const tokens = Math.ceil(body.length / 4);
    const { messages } = JSON.parse(body) as { messages: WindowRequest['messages'] };
    const summary = messages[0]?.content.startsWith(SUMMARY_PROMPT_START) === true;
    const refused = !summary && (options.refuse?.(steps) ?? false);
    requests.push({ tokens, purpose: summary ? 'summary' : 'step', messages, refused });
    const usage = { prompt_tokens: tokens, completion_tokens: 20 };
    if (summary) {
      summaries++;
      return sseReply(
        openAIStream([`Summary ${summaries}: the agent fetched blobs for the user.`], { usage }),
      )(response, body);
    }
    steps++;
    if (refused) return refuse(response, tokens, options.windowTokens);
    // A turn begins where the last message is not a batch's results.
    if (!messages.at(-1)?.content.endsWith('</results>')) stepInTurn = 0;
    stepInTurn++;
    const bytes = options.blobBytes + steps;
    const text =
      stepInTurn > options.stepsPerTurn
        ? 'Done.'
        : `<execute>[{"name":"blob","args":{"bytes":${bytes}}}]</execute>`;
    sseReply(openAIStream([text], { usage }))(response, body);
  });
  return { url: `${server.url}/v1`, requests, close: () => server.close() };
}

/** OpenAI's refusal of a request longer than the model's context window, as its API words it. */
function refuse(response: ServerResponse, tokens: number, window: number): void {
  const error = {
    message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  };
  response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
}
