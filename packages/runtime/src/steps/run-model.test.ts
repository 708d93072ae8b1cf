import { describe, expect, it } from 'vitest';
import type { Model, ModelPart } from '../model/model.js';
import { NO_USAGE, UNREPORTED_USAGE } from '../model/model-usage.js';
import { runModel } from './run-model.js';

const USAGE = { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };
const REQUEST = { system: '', messages: [], step: 0, turnStep: 0, stopSequences: [] };

/** A provider's model streaming `parts`. */
function provider(parts: ModelPart[]): Model {
  return {
    id: 'test:m',
    usageMayBeUnknown: true,
    stream: async function* () {
      yield* parts;
    },
  };
}

describe('runModel', () => {
  it('sums the usage a provider reported', async () => {
    const run = await runModel(provider(['Done.', USAGE, USAGE]), REQUEST);
    expect(run).toMatchObject({ usage: { inputTokens: 14, outputTokens: 6 } });
    expect(run.usageUnknown).toBeUndefined();
  });

  it('calls the usage unknown when a request of the step never reported its own, however much the others did', async () => {
    const run = await runModel(provider(['Done.', USAGE, UNREPORTED_USAGE]), REQUEST);
    expect(run).toMatchObject({ usage: NO_USAGE, usageUnknown: true });
  });

  it('calls the usage unknown when the provider reported none', async () => {
    expect(await runModel(provider(['Done.']), REQUEST)).toMatchObject({
      usage: NO_USAGE,
      usageUnknown: true,
    });
  });
});
