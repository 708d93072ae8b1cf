import { describe, expect, it } from 'vitest';
import { replayFixture } from '../testing/replay-fixture.js';
import { OpenAIModel } from './openai-model.js';

const replay = replayFixture();

/** A Chat Completions response streaming these deltas, ended by a stop sequence. */
function stoppedStream(...deltas: object[]) {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames = [...deltas.map((delta) => chunk(delta, null)), chunk({}, 'stop'), 'data: [DONE]\n\n'];
  return { headers: { 'content-type': 'text/event-stream' }, frames };
}

describe('native reasoning', () => {
  it('is stored as a think event and never sent back: a continuation prefills the answer text only', async () => {
    // The stop sequence fires inside a JSON string of the call, so the step continues (A7).
    const call = '<execute>[{"name": "echo", "args": {"text": "a';
    const { events } = await replay.step(
      [
        stoppedStream({ reasoning_content: 'Think it over.' }, { content: call }),
        stoppedStream({ content: '"}}]\n</execute>' }),
      ],
      new OpenAIModel({ model: 'm', baseURL: `${replay.url()}/v1`, apiKey: 'test' }),
    );
    expect(events.map((event) => event.type)).toEqual(['think', 'call', 'execute']);
    expect(events[0]).toEqual({ type: 'think', content: 'Think it over.' });
    const continuation = JSON.parse(replay.bodies()[1] ?? '{}') as {
      messages: Array<{ role: string; content: string }>;
    };
    expect(continuation.messages.at(-1)).toEqual({ role: 'assistant', content: call });
  });
});
