import { describe, expect, it } from 'vitest';
import { collectStream } from '../testing/collect-stream.js';
import { RecordingModel } from './recording-model.js';
import { ReplayModel } from './replay-model.js';
import { ScriptedModel } from './scripted-model.js';

const request = (step: number) => ({ system: 's', messages: [], step, stopSequences: [] });

describe('RecordingModel', () => {
  it('records each step as streamed, and the cassette replays it chunk for chunk', async () => {
    const recorder = new RecordingModel(new ScriptedModel([['<think>a', '</think>'], 'done']));
    await collectStream(recorder.stream(request(0)));
    await collectStream(recorder.stream(request(1)));
    const cassette = recorder.cassette();
    expect(cassette).toEqual({
      version: 1,
      steps: [{ chunks: ['<think>a', '</think>'] }, { chunks: ['done'] }],
    });
    expect(await collectStream(new ReplayModel(cassette).stream(request(0)))).toEqual([
      '<think>a',
      '</think>',
    ]);
  });

  it('records what streamed when the reader stops early', async () => {
    const recorder = new RecordingModel(new ScriptedModel([['one', 'two', 'three']]));
    for await (const chunk of recorder.stream(request(0))) if (chunk === 'two') break;
    expect(recorder.cassette().steps).toEqual([{ chunks: ['one', 'two'] }]);
  });

  it('adds a later turn to an existing cassette, keeping its steps', async () => {
    const recorder = new RecordingModel(new ScriptedModel(['x', 'y', 'new']), {
      version: 1,
      steps: [{ chunks: ['old'] }],
    });
    await collectStream(recorder.stream(request(2)));
    expect(recorder.cassette().steps).toEqual([{ chunks: ['old'] }, { chunks: [] }, { chunks: ['new'] }]);
  });
});
