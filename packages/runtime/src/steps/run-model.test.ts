import { STEP_CAPS } from '@agentstep/protocol';
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

  it('stops reading at the cap on a step’s bytes, which closes the stream, and ends the step with the cap’s error', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const stream = { read: 0, closed: false };
    const model: Model = {
      id: 'test:flood',
      async *stream() {
        try {
          for (const part of [
            '<think>kept</think>',
            '<think>',
            ...Array.from({ length: 400 }, () => chunk),
          ]) {
            stream.read++;
            yield part;
          }
          yield USAGE;
        } finally {
          stream.closed = true;
        }
      },
    };
    const run = await runModel(model, REQUEST);
    expect(run.events).toEqual([
      { type: 'think', content: 'kept' },
      { type: 'error', content: expect.stringContaining(`more than ${STEP_CAPS.outputBytes} bytes of text`) },
    ]);
    // The two first parts, then 16 MiB of text less the 26 bytes before it: the 256th chunk passes the cap.
    expect(stream).toEqual({ read: 2 + STEP_CAPS.outputBytes / chunk.length, closed: true });
  });
});
