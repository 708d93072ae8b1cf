import { describe, expect, it } from 'vitest';
import { collectStream } from '../testing/collect-stream.js';
import { ReplayModel } from './replay-model.js';
import { ScriptedModel } from './scripted-model.js';

const request = (step: number) => ({ system: 'sys', messages: [], step, stopSequences: ['</execute>'] });

describe('ScriptedModel', () => {
  it('streams each session step from the script, strings whole and arrays chunk by chunk', async () => {
    const model = ScriptedModel.fromJson('["one", ["t", "wo"]]', 'script.json');
    expect(await collectStream(model.stream(request(0)))).toEqual(['one']);
    expect(await collectStream(model.stream(request(1)))).toEqual(['t', 'wo']);
    expect(model.calls.map((call) => call.step)).toEqual([0, 1]);
  });

  it('says how to fix a script that ran out of steps', async () => {
    const model = new ScriptedModel(['only'], 'demo.json');
    await expect(collectStream(model.stream(request(1)))).rejects.toMatchObject({
      name: 'ScriptEnded',
      message: 'demo.json has 1 model steps, and step 2 was requested: add more steps or lower --max-steps.',
    });
  });

  it.each([
    ['{', 'bad.json is not valid JSON'],
    ['[]', 'a script needs at least one model step'],
    ['[1]', '→ at [0]'],
  ])('rejects %j with a clear error', (text, message) => {
    expect(() => ScriptedModel.fromJson(text, 'bad.json')).toThrow(message);
  });
});

describe('ReplayModel', () => {
  it('replays recorded chunks step by step', async () => {
    const model = ReplayModel.fromCassette('{"version": 1, "steps": [{"chunks": ["a", "b"]}]}', 'c.json');
    expect(await collectStream(model.stream(request(0)))).toEqual(['a', 'b']);
  });

  it('rejects a cassette of another version', () => {
    expect(() => ReplayModel.fromCassette('{"version": 2, "steps": []}', 'c.json')).toThrow(
      'c.json is not valid',
    );
  });
});
