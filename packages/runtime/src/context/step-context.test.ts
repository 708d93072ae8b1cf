import { buildMessages, resultEvent, type StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { ContextOverflowError } from '../errors.js';
import { inMemoryStores } from '../in-memory-stores.js';
import type { Model, ModelPart, ModelRequest } from '../model/model.js';
import { ContextTooLongError } from '../model/model-errors.js';
import { submitTurn } from '../steps/submit-turn.js';
import type { ContextOptions } from './context-options.js';
import { contextAfterRefusal, stepContext } from './step-context.js';

const clock = { now: () => 1_700_000_000_000 };
const at = clock.now() / 1000;

/** A model that answers a compaction's summary request with `summary`, recording every request. */
function summarizer(summary = 'They echoed blobs.', id = 'summarizer') {
  const requests: ModelRequest[] = [];
  const model: Model = {
    id,
    async *stream(request: ModelRequest): AsyncIterable<ModelPart> {
      requests.push(request);
      yield { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
      yield summary;
    },
  };
  return { model, requests };
}

/** A session of one turn whose `steps` model steps each called `blob` and got `bytes` back. */
async function session(steps: number, bytes = 2_000) {
  const stores = inMemoryStores();
  const deps = { ...stores, clock };
  await submitTurn({ session: 's', turn: 't', prompt: 'Echo blobs until I say stop.' }, deps);
  for (let step = 1; step <= steps; step++) {
    const batch = `t.${step}`;
    const call = {
      type: 'call' as const,
      content: '{"name":"blob","args":{}}',
      timestamp: at,
      payload: { index: 0 },
    };
    await stores.log.append({
      session: 's',
      turn: 't',
      key: `step ${step}`,
      events: [{ event: call, batch, position: 0 }],
    });
    const result = {
      ...resultEvent([{ tool: 'blob', status: 'success', content: 'x'.repeat(bytes) }]),
      timestamp: at,
    };
    await stores.log.append({
      session: 's',
      turn: 't',
      key: `result ${step}`,
      events: [{ event: result, batch }],
    });
  }
  return deps;
}

const input = (log: readonly StoredEvent[], model: Model, steps: number) => ({
  state: { session: 's', turn: 't', step: steps, turnSteps: steps },
  batch: `t.${steps + 1}`,
  log,
  system: 'You echo blobs.',
  model,
});

/** Whether every `<results>` message directly follows the assistant message with its `<execute>`. */
function resultsFollowTheirCalls(messages: ReturnType<typeof buildMessages>): boolean {
  return messages.every(
    (message, index) =>
      !message.content.startsWith('<results>') ||
      (messages[index - 1]?.role === 'assistant' &&
        messages[index - 1]?.content.includes('<execute>') === true),
  );
}

const compactions = (log: readonly StoredEvent[]) => log.filter(({ event }) => event.type === 'compacted');

describe('stepContext', () => {
  it('leaves the context whole when no window is known, however long', async () => {
    const deps = await session(20);
    const log = await deps.log.read('s');
    const context = await stepContext(input(log, summarizer().model, 20), deps);
    expect(context.log).toBe(log);
    expect(context.messages).toEqual(buildMessages(log));
  });

  it('leaves a context under compactAt of the window as it is, reading no note', async () => {
    const deps = await session(2);
    const log = await deps.log.read('s');
    const context = await stepContext(input(log, summarizer().model, 2), {
      ...deps,
      context: { windowTokens: 8_000 },
    });
    expect(compactions(context.log)).toEqual([]);
  });

  it('compacts past compactAt × window: one compacted event, a summary, the newest part whole, under the threshold', async () => {
    const deps = await session(10);
    const log = await deps.log.read('s');
    const { model, requests } = summarizer();
    const settings: ContextOptions = { windowTokens: 8_000 };
    const context = await stepContext(input(log, model, 10), { ...deps, context: settings });
    const [compacted] = compactions(context.log);
    expect(compacted?.event).toMatchObject({
      type: 'compacted',
      payload: { summary: 'They echoed blobs.', model: 'summarizer', strategy: 'summarize', turns: 1 },
    });
    const payload = compacted?.event.type === 'compacted' ? compacted.event.payload : undefined;
    expect(payload?.tokensBefore).toBeGreaterThan(0.8 * 8_000);
    expect(payload?.tokensAfter).toBeLessThanOrEqual(0.8 * 8_000);
    expect(Math.ceil(context.estimatedTokens * context.ratio)).toBe(payload?.tokensAfter);
    // Cut right after a batch's results, the newest step and its results kept whole.
    expect(log.find(({ seq }) => seq === payload?.upToSeq)?.event.type).toBe('result');
    expect(context.messages[0]?.content).toMatch(/^<summary>\n[\s\S]*They echoed blobs\.\n<\/summary>$/);
    expect(context.messages.at(-1)?.content).toMatch(/^<results>/);
    expect(resultsFollowTheirCalls(context.messages)).toBe(true);
    // The summary request was asked of the summary model, with no stop sequences, and fit the window.
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ purpose: 'compaction', stopSequences: [], maxOutputTokens: 800 });
    expect(requests[0]?.messages[0]?.content).toContain('Echo blobs until I say stop.');
    // The ledger counts the summary's tokens, marked as compaction, under the step it came before.
    expect(await deps.usage.list('s')).toEqual([
      expect.objectContaining({ batch: 't.11', purpose: 'compaction', model: 'summarizer' }),
    ]);
  });

  it('compacts once per step: a redelivered step finds the compaction and writes no other', async () => {
    const deps = await session(12);
    const log = await deps.log.read('s');
    const settings = { ...deps, context: { windowTokens: 8_000 } };
    const first = await stepContext(input(log, summarizer().model, 12), settings);
    const again = await stepContext(input(log, summarizer('Another summary.').model, 12), settings);
    expect(compactions(await deps.log.read('s'))).toHaveLength(1);
    expect(again.messages).toEqual(first.messages);
    const later = await stepContext(input(first.log, summarizer().model, 12), settings);
    expect(compactions(later.log)).toHaveLength(1);
  });

  it('with `drop`, calls no model and notes what was left out', async () => {
    const deps = await session(12);
    const { model, requests } = summarizer();
    const context = await stepContext(input(await deps.log.read('s'), model, 12), {
      ...deps,
      context: { windowTokens: 8_000, strategy: 'drop' },
    });
    const [compacted] = compactions(context.log);
    expect(requests).toEqual([]);
    expect(compacted?.event).toMatchObject({
      payload: {
        strategy: 'drop',
        summary: expect.stringMatching(
          /^Events 1–\d+ were left out to fit the context window: 1 turn, \d+ tool calls\.$/,
        ),
      },
    });
    expect(compacted?.event).not.toHaveProperty('payload.model');
    expect(await deps.usage.list('s')).toEqual([]);
  });

  it('summarizes an older part too large for one request in pieces, each within the window', async () => {
    const deps = await session(40);
    const { model, requests } = summarizer();
    const context = await stepContext(input(await deps.log.read('s'), model, 40), {
      ...deps,
      context: { windowTokens: 8_000 },
    });
    expect(requests.length).toBeGreaterThan(1);
    for (const request of requests) {
      const chars =
        request.system.length + request.messages.reduce((sum, message) => sum + message.content.length, 0);
      expect(chars / 4).toBeLessThanOrEqual(8_000);
    }
    // Each piece's request carries the summary so far.
    expect(requests[1]?.messages[0]?.content).toContain('They echoed blobs.');
    expect(compactions(context.log)).toHaveLength(1);
  });

  it('notes what was left out when the summary model refuses the request as too long', async () => {
    const deps = await session(12);
    const refusing: Model = {
      id: 'refusing',
      // biome-ignore lint/correctness/useYield: it refuses before any output
      async *stream() {
        throw new ContextTooLongError('too long');
      },
    };
    const context = await stepContext(input(await deps.log.read('s'), summarizer().model, 12), {
      ...deps,
      context: { windowTokens: 8_000, summaryModel: refusing },
    });
    expect(compactions(context.log)[0]?.event).toMatchObject({ payload: { strategy: 'drop' } });
  });

  it('fails with ContextOverflow, naming the sizes, when the newest exchange alone cannot fit', async () => {
    const deps = await session(3, 40_000);
    const { model, requests } = summarizer();
    const compacting = stepContext(input(await deps.log.read('s'), model, 3), {
      ...deps,
      context: { windowTokens: 8_000, maxResultBytes: 64 * 1024 },
    });
    await expect(compacting).rejects.toThrow(ContextOverflowError);
    await expect(compacting).rejects.toThrow(/newest exchange \d+\), over its window of 8000 tokens/);
    expect(requests).toEqual([]);
  });
});

describe('contextAfterRefusal', () => {
  it('compacts a context the estimate thought fitted, as if it were over the window', async () => {
    const deps = await session(4);
    const log = await deps.log.read('s');
    const settings = { ...deps, context: { windowTokens: 8_000 } };
    const sent = await stepContext(input(log, summarizer().model, 4), settings);
    expect(compactions(sent.log)).toEqual([]);
    const after = await contextAfterRefusal(
      input(log, summarizer().model, 4),
      sent,
      new ContextTooLongError('no'),
      settings,
    );
    expect(compactions(after.log)).toHaveLength(1);
    expect(after.ratio).toBeGreaterThan(sent.ratio);
  });

  it('takes the window from the refusal when none is known, and rethrows when nothing names one', async () => {
    const deps = await session(6);
    const log = await deps.log.read('s');
    const sent = await stepContext(input(log, summarizer().model, 6), deps);
    const named = new ContextTooLongError('no', { limitTokens: 3_000, requestTokens: 3_500 });
    const after = await contextAfterRefusal(input(log, summarizer().model, 6), sent, named, deps);
    expect(compactions(after.log)[0]?.event).toMatchObject({ payload: { tokensBefore: 3_500 } });
    const unnamed = new ContextTooLongError('no');
    await expect(
      contextAfterRefusal(input(after.log, summarizer().model, 6), sent, unnamed, deps),
    ).rejects.toBe(unnamed);
  });
});
