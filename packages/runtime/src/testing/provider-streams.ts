import type { Reply } from './recording-server.js';

/** The usage frame of a Chat Completions stream. */
export interface OpenAIStreamUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

/**
 * A Chat Completions stream as an OpenAI-compatible server writes it, byte for byte: a `data:`
 * line per chunk (a role chunk, one per delta, the finish reason), the usage frame when given, and
 * `[DONE]`. OpenAI says `stop` for a stop sequence and for the model's own end alike.
 */
export function openAIStream(
  deltas: readonly string[],
  options: { finish?: string; usage?: OpenAIStreamUsage } = {},
): string {
  const chunk = (fields: object) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', ...fields })}\n\n`;
  const choice = (delta: object, finish: string | null) => ({
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const { usage } = options;
  return [
    chunk(choice({ role: 'assistant', content: '' }, null)),
    ...deltas.map((content) => chunk(choice({ content }, null))),
    chunk(choice({}, options.finish ?? 'stop')),
    ...(usage
      ? [
          chunk({
            choices: [],
            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
          }),
        ]
      : []),
    'data: [DONE]\n\n',
  ].join('');
}

/** The usage counters of an Anthropic Messages stream. */
export interface AnthropicStreamUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/**
 * A Messages stream as Anthropic writes it, byte for byte: named events (`message_start` with the
 * input usage, one text block of deltas, `message_delta` with the stop reason, the sequence that
 * fired and the output tokens, `message_stop`).
 */
export function anthropicStream(
  deltas: readonly string[],
  options: { stopSequence?: string | null; usage?: AnthropicStreamUsage } = {},
): string {
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const usage = options.usage ?? { input_tokens: 1, output_tokens: 1 };
  const stopSequence = options.stopSequence ?? null;
  const message = { id: 'm', type: 'message', role: 'assistant', model: 'claude', content: [] };
  return [
    event('message_start', {
      message: { ...message, stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...deltas.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: stopSequence ? 'stop_sequence' : 'end_turn', stop_sequence: stopSequence },
      usage: { output_tokens: usage.output_tokens },
    }),
    event('message_stop', {}),
  ].join('');
}

/** A reply that starts streaming `body` as server-sent events, then cuts the connection. */
export function cutReply(body: string): Reply {
  return (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(body, () => response.socket?.destroy());
  };
}

/** A reply that streams `body` as server-sent events. */
export function sseReply(body: string): Reply {
  return (response) => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
}
