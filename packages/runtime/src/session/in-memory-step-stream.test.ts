import { describe, expect, it } from 'vitest';
import { inMemoryStores } from '../in-memory-stores.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { modelStep } from '../steps/model-step.js';
import { startTurn } from '../steps/start-turn.js';
import { submitTurn } from '../steps/submit-turn.js';
import { InMemoryStepStream } from './in-memory-step-stream.js';
import type { StreamedChunk } from './step-stream.js';

describe('InMemoryStepStream', () => {
  it("carries a model step's chunks as they stream to the session's followers only", async () => {
    const stores = inMemoryStores();
    const clock = { now: () => 1_700_000_000_000 };
    const stream = new InMemoryStepStream();
    const seen: StreamedChunk[] = [];
    const other: StreamedChunk[] = [];
    const stop = stream.subscribe('s', (chunk) => seen.push(chunk));
    stream.subscribe('elsewhere', (chunk) => other.push(chunk));
    const deps = {
      ...stores,
      clock,
      stream,
      model: new ScriptedModel([['<think>a', ' plan</think>', 'Hi.']]),
    };
    await submitTurn({ session: 's', turn: 't', prompt: 'go' }, deps);
    await modelStep(await startTurn({ session: 's', turn: 't' }, deps), {
      ...deps,
      tools: [],
      targetOf: () => 'x',
    });
    expect(seen).toEqual([
      { session: 's', step: 0, text: '<think>a' },
      { session: 's', step: 0, text: ' plan</think>' },
      { session: 's', step: 0, text: 'Hi.' },
    ]);
    expect(other).toEqual([]);
    stop();
    stream.write({ session: 's', step: 1, text: 'later' });
    expect(seen).toHaveLength(3);
  });
});
