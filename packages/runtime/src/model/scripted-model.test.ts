import { describe, expect, it } from 'vitest';
import { collectParts, collectStream } from '../testing/collect-stream.js';
import { ReplayModel } from './replay-model.js';
import { KEPT_CALLS, ScriptedModel } from './scripted-model.js';
import { scriptedSummary } from './scripted-summary.js';

/** Session step `step`, by default in a turn that began the session. */
const request = (step: number, turnStep = step) => ({
  system: 'sys',
  messages: [],
  step,
  turnStep,
  stopSequences: ['</execute>'],
});

/** A compaction's summary request, made before session step `step`. */
const compaction = (step: number, turnStep = step) => ({
  system: 'Summarize the conversation.',
  messages: [{ role: 'user' as const, content: 'Count the files.' }],
  step,
  turnStep,
  stopSequences: [],
  purpose: 'compaction' as const,
});

describe('ScriptedModel', () => {
  it('streams each step of the turn from the script, strings whole and arrays chunk by chunk', async () => {
    const model = ScriptedModel.fromJson('["one", ["t", "wo"]]', 'script.json');
    expect(await collectStream(model.stream(request(0)))).toEqual(['one']);
    expect(await collectStream(model.stream(request(1)))).toEqual(['t', 'wo']);
    expect(model.calls.map((call) => call.step)).toEqual([0, 1]);
  });

  it('plays every turn from the first element of the script', async () => {
    const model = new ScriptedModel(['first', 'second']);
    const firstTurn = [request(0), request(1)];
    const secondTurn = [request(2, 0), request(3, 1)];
    const played = [];
    for (const step of [...firstTurn, ...secondTurn]) played.push(await collectStream(model.stream(step)));
    expect(played).toEqual([['first'], ['second'], ['first'], ['second']]);
  });

  it('says how to fix a script that ran out of steps in a turn', async () => {
    const model = new ScriptedModel(['only'], 'demo.json');
    await expect(collectStream(model.stream(request(5, 1)))).rejects.toMatchObject({
      name: 'ScriptEnded',
      message:
        'demo.json has 1 model steps, and step 2 of the turn was requested: add more steps or lower --max-steps.',
    });
  });

  it('answers a compaction with the scripted summary and no usage, playing no step', async () => {
    const usage = { inputTokens: 9, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const model = new ScriptedModel([{ chunks: ['one'], usage }, 'two']);
    expect(await collectParts(model.stream(request(0)))).toEqual([usage, 'one']);
    // At the turn's step 1, past the end of a script that had ended: a step would fail, a summary does not.
    expect(await collectParts(model.stream(compaction(1)))).toEqual([scriptedSummary(compaction(1))]);
    expect(await collectStream(model.stream(request(1)))).toEqual(['two']);
    expect(await collectParts(new ScriptedModel(['only']).stream(compaction(5)))).toHaveLength(1);
    expect(model.calls.map((call) => call.purpose ?? 'step')).toEqual(['step', 'compaction', 'step']);
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

  it("plays by the session's step, as --record wrote the cassette across turns", async () => {
    const model = new ReplayModel(
      { version: 1, steps: [{ chunks: ['turn 1'] }, { chunks: ['turn 2'] }] },
      'c.json',
    );
    expect(await collectStream(model.stream(request(1, 0)))).toEqual(['turn 2']);
    await expect(collectStream(model.stream(request(2, 0)))).rejects.toMatchObject({
      name: 'ScriptEnded',
      message:
        'c.json has 2 model steps, and step 3 of the session was requested: add more steps or lower --max-steps.',
    });
  });

  it('answers a compaction the scripted way, leaving the session step it came before to the cassette', async () => {
    const model = new ReplayModel({ version: 1, steps: [{ chunks: ['first'] }, { chunks: ['second'] }] });
    expect(await collectStream(model.stream(compaction(1)))).toEqual([scriptedSummary(compaction(1))]);
    expect(await collectStream(model.stream(request(1)))).toEqual(['second']);
  });

  it('rejects a cassette of another version', () => {
    expect(() => ReplayModel.fromCassette('{"version": 2, "steps": []}', 'c.json')).toThrow(
      'c.json is not valid',
    );
  });
});

describe('ScriptedModel: a long session', () => {
  it('keeps only its latest requests, however many steps it plays', async () => {
    const model = new ScriptedModel(['one step']);
    const request = (turnStep: number) => ({
      system: 's',
      messages: [],
      step: turnStep,
      turnStep: 0,
      stopSequences: [],
    });
    for (let step = 0; step < KEPT_CALLS + 5; step++) for await (const _ of model.stream(request(step)));
    expect(model.calls).toHaveLength(KEPT_CALLS);
    expect(model.calls[0]?.step).toBe(5);
    expect(model.calls.at(-1)?.step).toBe(KEPT_CALLS + 4);
  });
});
