import { GoalScriptedModel } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { loadModel } from './load-model.js';
import { parseRunOptions } from './run-options.js';

const GOALS = JSON.stringify({ plan: ['Planned.<end>'] });

describe('loadModel', () => {
  it("plays a workflow's script by goal on the same model for a scripted profile", async () => {
    const io = memoryIo({ files: { 'goals.json': GOALS } });
    const options = parseRunOptions(['--script', 'goals.json', '--model-profile', 'fast=scripted']);
    const { model, models } = await loadModel(options, io);
    expect(model).toBeInstanceOf(GoalScriptedModel);
    expect(models.fast).toBe(model);
  });

  it("builds a provider profile's own model, named as the profile names it", async () => {
    const io = memoryIo({ files: { 'goals.json': GOALS } });
    const options = parseRunOptions([
      '--script',
      'goals.json',
      '--base-url',
      'http://127.0.0.1:9',
      '--model-profile',
      'local=openai:llama3.1',
    ]);
    const { model, models } = await loadModel(options, io);
    expect([model.id, models.local?.id]).toEqual(['scripted', 'openai:llama3.1']);
  });

  it("makes the context's summary model as a profile's: its own for a provider's, the run's for scripted", async () => {
    const io = memoryIo({ files: { 'goals.json': GOALS } });
    const options = parseRunOptions(['--script', 'goals.json', '--base-url', 'http://127.0.0.1:9']);
    const withSummary = (summaryModel: string) => ({ ...options, context: { summaryModel } });
    const provided = await loadModel(withSummary('openai:gpt-4o-mini'), io);
    expect(provided.summaryModel?.id).toBe('openai:gpt-4o-mini');
    const scripted = await loadModel(withSummary('scripted'), io);
    expect(scripted.summaryModel).toBe(scripted.model);
    expect((await loadModel(options, io)).summaryModel).toBeUndefined();
  });
});
