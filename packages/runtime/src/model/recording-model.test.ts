import { describe, expect, it } from 'vitest';
import { collectParts, collectStream } from '../testing/collect-stream.js';
import { RecordingModel } from './recording-model.js';
import { ReplayModel } from './replay-model.js';
import { ScriptedModel } from './scripted-model.js';
import { scriptedSummary } from './scripted-summary.js';

/** Session step `step`, by default in a turn that began the session. */
const request = (step: number, turnStep = step) => ({
  system: 's',
  messages: [],
  step,
  turnStep,
  stopSequences: [],
});

describe('RecordingModel', () => {
  it('records each step as streamed with its usage and model, and the cassette replays both', async () => {
    const usage = { inputTokens: 9, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const inner = new ScriptedModel(
      [{ chunks: ['<think>a', '</think>'], usage }, 'done'],
      'script',
      'openai:m',
    );
    const recorder = new RecordingModel(inner);
    await collectStream(recorder.stream(request(0)));
    await collectStream(recorder.stream(request(1)));
    const cassette = recorder.cassette();
    expect(cassette).toEqual({
      version: 1,
      model: 'openai:m',
      steps: [{ chunks: ['<think>a', '</think>'], usage }, { chunks: ['done'] }],
    });
    const replay = new ReplayModel(cassette);
    expect(replay.id).toBe('openai:m');
    expect(await collectParts(replay.stream(request(0)))).toEqual([usage, '<think>a', '</think>']);
  });

  it('records what streamed when the reader stops early', async () => {
    const recorder = new RecordingModel(new ScriptedModel([['one', 'two', 'three']]));
    for await (const chunk of recorder.stream(request(0))) if (chunk === 'two') break;
    expect(recorder.cassette().steps).toEqual([{ chunks: ['one', 'two'] }]);
  });

  it('passes a compaction through unrecorded, so it overwrites no step of the cassette', async () => {
    const recorder = new RecordingModel(new ScriptedModel(['one', 'two']));
    await collectStream(recorder.stream(request(0)));
    const compaction = { ...request(1), messages: [{ role: 'user' as const, content: 'go' }] };
    const summary = await collectStream(recorder.stream({ ...compaction, purpose: 'compaction' }));
    expect(summary).toEqual([scriptedSummary({ ...compaction, purpose: 'compaction' })]);
    await collectStream(recorder.stream(request(1)));
    expect(recorder.cassette().steps).toEqual([{ chunks: ['one'] }, { chunks: ['two'] }]);
  });

  it('adds a later turn to an existing cassette, keeping its steps', async () => {
    const recorder = new RecordingModel(new ScriptedModel(['new']), {
      version: 1,
      steps: [{ chunks: ['old'] }],
    });
    await collectStream(recorder.stream(request(2, 0)));
    expect(recorder.cassette().steps).toEqual([{ chunks: ['old'] }, { chunks: [] }, { chunks: ['new'] }]);
  });
});
