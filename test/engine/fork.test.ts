import { randomUUID } from 'node:crypto';
import type { PersistedEvent } from '@agentstep/protocol';
import {
  defineTool,
  demoTools,
  type EventLog,
  forkSession,
  type ModelRequest,
  type NewEvent,
} from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, localAgent, type Stores } from '../support/harness.js';

const at = 1_700_000_000;

/** A `count` tool whose every run is an effect the test can count (a batch's calls run at once: in any order). */
function countingTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'count',
    description: 'Counts one more.',
    input: z.object({ n: z.number() }),
    handler: ({ n }) => {
      runs.push(String(n));
      return n;
    },
  });
  return { tool, runs };
}

/** One ended turn of `calls` echo calls in one batch: user, calls, result, respond, turn_end. */
function pastTurn(turn: string, calls: number): NewEvent[] {
  const batchId = `${turn}.0`;
  const event = (e: PersistedEvent, where: Partial<NewEvent> = {}): NewEvent => ({ event: e, ...where });
  const items = Array.from({ length: calls }, (_, n) => ({
    tool: 'echo',
    status: 'success',
    content: `echo ${n}`,
  }));
  return [
    event({ type: 'user', content: `Echo ${calls} times (${turn})`, timestamp: at }),
    ...Array.from({ length: calls }, (_, n) =>
      event(
        {
          type: 'call',
          content: JSON.stringify({ name: 'echo', args: { text: `echo ${n}` } }),
          payload: { index: n },
          timestamp: at,
        },
        { batch: batchId, position: n },
      ),
    ),
    event(
      {
        type: 'result',
        content: JSON.stringify(items),
        payload: { tools_executed: calls, success_count: calls, failure_count: 0 },
        timestamp: at,
      },
      { batch: batchId },
    ),
    event({ type: 'respond', content: `Echoed ${calls} times.`, timestamp: at }),
    event({
      type: 'turn_end',
      content: 'The turn finished.',
      payload: { turn, status: 'done' },
      timestamp: at,
    }),
  ];
}

/** Writes `turns` ended turns of 40 calls each (44 events a turn) to a new session. */
async function longSession(log: EventLog, turns: number): Promise<string> {
  const session = `s-${randomUUID()}`;
  for (let index = 0; index < turns; index++) {
    const turn = `t-past-${index}`;
    await log.acquireTurn(session, turn);
    await log.append({ session, turn, key: turn, release: true, events: pastTurn(turn, 40) });
  }
  return session;
}

/** What a model request shows the model, as bytes. */
const shown = ({ system, messages, step, stopSequences }: ModelRequest) =>
  JSON.stringify({ system, messages, step, stopSequences });

describe.skipIf(dynamoEndpoint === '')('forking a 2,000-event session (issue 28)', () => {
  it("runs no tool, and the fork's first turn sees what the original saw at the fork point, byte for byte", async () => {
    const counting = countingTool();
    const tools = [...demoTools, counting.tool];
    const original = await localAgent({
      script: [batch(['count', { n: 1 }], ['count', { n: 2 }]), 'Done.<end>'],
      tools,
    });
    const { log } = original.stores;
    const session = await longSession(log, 45);
    const prefixEnd = (await log.read(session)).length;
    expect(prefixEnd).toBe(1_980);
    const ran = await original.turn('Count twice', { session });
    expect(ran.events).toHaveLength(1_986);
    const resultSeq = ran.events.findLast(({ event }) => event.type === 'result')?.seq ?? 0;
    expect(counting.runs.toSorted()).toEqual(['1', '2']);
    const [firstStep, afterResults] = original.model.calls;

    // At a batch's results: the fork's first turn sees the original's next step, its message added.
    const branch = `s-${randomUUID()}`;
    await forkSession({ from: session, at: resultSeq, session: branch }, original.stores);
    expect(counting.runs.toSorted()).toEqual(['1', '2']);
    expect(await log.read(branch)).toEqual(
      ran.events.slice(0, resultSeq).map((stored) => ({ ...stored, session: branch })),
    );
    const sharing = (script: string[]) =>
      localAgent({ script, tools, stores: (): Stores => original.stores });
    const answering = await sharing(['Done.<end>']);
    await answering.turn('Go on', { session: branch });
    const seen = answering.model.calls[0];
    if (afterResults === undefined || seen === undefined) throw new Error('a model step is missing');
    const messages = afterResults.messages.map((message) => ({ ...message }));
    const last = messages.at(-1);
    if (last) last.content = `${last.content}\n\nGo on`;
    expect(shown(seen)).toBe(shown({ ...afterResults, messages }));
    expect(counting.runs.toSorted()).toEqual(['1', '2']);

    // At a turn's end, the same message again: the very request the original's turn began with.
    const resent = `s-${randomUUID()}`;
    await forkSession({ from: session, at: prefixEnd, session: resent }, original.stores);
    const again = await sharing([batch(['count', { n: 1 }], ['count', { n: 2 }]), 'Done.<end>']);
    await again.turn('Count twice', { session: resent });
    if (firstStep === undefined || again.model.calls[0] === undefined)
      throw new Error('a model step is missing');
    expect(shown(again.model.calls[0])).toBe(shown(firstStep));

    // A fork of the fork reads through both.
    const branchLog = await log.read(branch);
    const twig = `s-${randomUUID()}`;
    await forkSession({ from: branch, at: branchLog.length, session: twig }, original.stores);
    expect(await log.read(twig)).toEqual(branchLog.map((stored) => ({ ...stored, session: twig })));
  });
});
