import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * The server-sent frames of `body`, each once it is complete: a frame cut off by the end of the body
 * is never yielded. `onComment` hears each comment line (`: keep-alive`).
 */
export async function* readFrames(
  body: ReadableStream<Uint8Array>,
  onComment: () => void,
): AsyncGenerator<EventSourceMessage> {
  const frames: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (frame) => frames.push(frame), onComment });
  const decoder = new TextDecoder();
  // A reader rather than `for await`: browsers without async-iterable streams (Safari) can read it.
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      parser.feed(decoder.decode(read.value, { stream: true }));
      yield* frames.splice(0);
    }
  } finally {
    reader.releaseLock();
  }
}
