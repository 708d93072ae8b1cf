import { randomUUID } from 'node:crypto';
import { forkPoints, type ModelMessage, type StoredEvent } from '@agentstep/protocol';
import { forkSession, type ModelRequest } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, canonical, chaosSeeds, localAgent, type Stores } from '../support/harness.js';

const done = 'Done.<end>';
/** `steps` model steps, each a call of `blob` for about 2 KB (other arguments each time), then an answer. */
const blobSteps = (steps: number) => [
  ...Array.from({ length: steps }, (_, step) => batch(['blob', { bytes: 2_000 + step }])),
  done,
];
const window = { windowTokens: 4_000 };

/** The tokens a request holds as a server counting a quarter of its characters would say. */
const quarterChars = ({ system, messages }: ModelRequest) =>
  (system.length + messages.reduce((sum, message) => sum + message.content.length, 0)) / 4;

const compactions = (events: readonly StoredEvent[]) =>
  events.filter(({ event }) => event.type === 'compacted');
const steps = (calls: readonly ModelRequest[]) => calls.filter((call) => call.purpose !== 'compaction');

/** Whether every `<results>` message directly follows the assistant message with its `<execute>`. */
const resultsFollowTheirCalls = (messages: readonly ModelMessage[]) =>
  messages.every(
    (message, index) =>
      !message.content.startsWith('<results>') ||
      (messages[index - 1]?.role === 'assistant' &&
        messages[index - 1]?.content.includes('<execute>') === true),
  );

/** Whether `later` begins with `earlier`'s messages: all equal, the last one extended at most. */
function beginsWith(later: readonly ModelMessage[], earlier: readonly ModelMessage[]): boolean {
  const last = earlier.length - 1;
  return earlier.every((message, index) =>
    index < last
      ? JSON.stringify(later[index]) === JSON.stringify(message)
      : later[index]?.role === message.role && later[index]?.content.startsWith(message.content) === true,
  );
}

describe.skipIf(dynamoEndpoint === '')('compaction on the synthesized loop (decision 0035)', () => {
  it('a 30-step turn compacts before it overflows: every request within the window, results after their calls, prefixes kept', async () => {
    const agent = await localAgent({ script: blobSteps(30), context: window, storage: 'memory' });
    const { events, output } = await agent.turn('Fetch blobs.');
    expect(output.status).toBe('done');
    expect(compactions(events).length).toBeGreaterThanOrEqual(3);
    const calls = agent.model.calls;
    for (const call of calls) expect(quarterChars(call)).toBeLessThanOrEqual(4_000);
    const stepCalls = steps(calls);
    expect(stepCalls).toHaveLength(31);
    for (const call of stepCalls) expect(resultsFollowTheirCalls(call.messages)).toBe(true);
    // Between two compactions each request begins with the previous one's messages.
    let kept = 0;
    for (let index = 1; index < calls.length; index++) {
      const [before, after] = [calls[index - 1], calls[index]];
      if (before?.purpose === 'compaction' || after?.purpose === 'compaction' || !before || !after) continue;
      expect(beginsWith(after.messages, before.messages)).toBe(true);
      kept++;
    }
    expect(kept).toBeGreaterThan(10);
    // The log itself is never rewritten: every step's events are still there.
    expect(events.filter(({ event }) => event.type === 'result')).toHaveLength(30);
  });

  describe('C3 chaos: a compacting turn at P = 0.5 gives the log of a run without chaos', () => {
    const script = blobSteps(16);
    let reference: Promise<ReturnType<typeof canonical>> | undefined;
    const referenceLog = () =>
      (reference ??= localAgent({ script, context: window, storage: 'memory' })
        .then((agent) => agent.turn('Fetch blobs.'))
        .then(({ events }) => canonical(events)));

    it.each(chaosSeeds(4))('seed %i on %s', async (seed, storage) => {
      const agent = await localAgent({ script, context: window, chaos: { probability: 0.5, seed }, storage });
      const { events, output } = await agent.turn('Fetch blobs.');
      expect(output.status).toBe('done');
      const log = canonical(events);
      expect(compactions(events).length).toBeGreaterThanOrEqual(2);
      expect(log).toEqual(await referenceLog());
    });
  });

  it('a fork at a seq before the first compaction sees the original, uncompacted context', async () => {
    const context = { ...window, strategy: 'drop' as const };
    const agent = await localAgent({ script: blobSteps(10), context, storage: 'memory' });
    const first = await agent.turn('The first turn says PELICAN.');
    const { session } = first;
    await agent.turn('The second turn.', { session });
    const events = await agent.stores.log.read(session);
    const firstCompaction = compactions(events)[0]?.seq ?? 0;
    expect(firstCompaction).toBeGreaterThan(0);
    const lastSteps = steps(agent.model.calls).slice(-3);
    for (const call of lastSteps) expect(JSON.stringify(call.messages)).not.toContain('PELICAN');

    const at = forkPoints(events).find((seq) => seq < firstCompaction) ?? 0;
    const branch = `s-${randomUUID()}`;
    await forkSession({ from: session, at, session: branch }, agent.stores);
    const answering = await localAgent({
      script: [done],
      context,
      storage: 'memory',
      stores: (): Stores => agent.stores,
    });
    await answering.turn('Go on.', { session: branch });
    expect(JSON.stringify(answering.model.calls[0]?.messages)).toContain('PELICAN');
    expect(compactions(await agent.stores.log.read(branch))).toEqual([]);
  });

  it('ends the turn failed with ContextOverflow when the newest exchange alone cannot fit', async () => {
    const agent = await localAgent({
      script: [batch(['blob', { bytes: 16_000 }]), done],
      context: { windowTokens: 4_000 },
      storage: 'memory',
    });
    const { events, output } = await agent.turn('Fetch one big blob.');
    expect(output.status).toBe('failed');
    expect(events.at(-1)?.event).toMatchObject({
      type: 'turn_end',
      payload: { status: 'failed', error: 'ContextOverflow' },
    });
  });
});
