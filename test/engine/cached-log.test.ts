import { randomUUID } from 'node:crypto';
import { buildMessages, type ModelMessage } from '@agentstep/protocol';
import type { Model } from '@agentstep/runtime';
import { DynamoEventLog } from '@agentstep/runtime/dynamo';
import { describe, expect, it } from 'vitest';
import { localDocumentClient } from '../support/dynamo-client.js';
import { batch, LOOP_TABLE, localAgent } from '../support/harness.js';

describe('model steps on the cached event log (the functions read only what is new)', () => {
  it('build every step context byte-identical to a full read of the log, under redelivery', async () => {
    const session = `s-cached-${randomUUID()}`;
    const full = new DynamoEventLog({ tableName: LOOP_TABLE, client: localDocumentClient() });
    const contexts: Array<{ cached: string; rebuilt: string }> = [];
    const comparing = (scripted: Model): Model => ({
      id: scripted.id,
      async *stream(request) {
        const rebuilt: ModelMessage[] = buildMessages(await full.read(session));
        contexts.push({ cached: JSON.stringify(request.messages), rebuilt: JSON.stringify(rebuilt) });
        yield* scripted.stream(request);
      },
    });
    const step = (n: number) =>
      batch(['echo', { text: `step ${n} ${'x'.repeat(n * 40)}` }], ['fail', { message: `no ${n}` }]);
    const agent = await localAgent({
      // Each turn plays the script from its first step: 13 steps per turn, 26 in the session.
      script: [...Array.from({ length: 12 }, (_, n) => step(n)), 'Done.'],
      model: comparing,
      chaos: { probability: 0.3, seed: 11 },
    });
    const first = await agent.turn('first turn', { session });
    expect(first.output.status).toBe('done');
    const second = await agent.turn('second turn', { session });
    expect(second.output.status).toBe('done');
    expect(contexts.length).toBeGreaterThanOrEqual(26);
    for (const { cached, rebuilt } of contexts) expect(cached).toBe(rebuilt);
  });
});
