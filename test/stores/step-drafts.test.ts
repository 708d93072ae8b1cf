import { randomUUID } from 'node:crypto';
import { DraftLiveSteps, InMemoryLiveSteps, type LiveText } from '@agentstep/api';
import { type EventLog, InMemoryEventLog, type StepStream } from '@agentstep/runtime';
import {
  DynamoEventLog,
  DynamoStepDrafts,
  DynamoStepStream,
  ensureEventLogTable,
} from '@agentstep/runtime/dynamo';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamoEndpoint, localDocumentClient } from '../support/dynamo-client.js';

const tableName = 'agentstep-step-drafts';
const user = { event: { type: 'user' as const, content: 'hi', timestamp: 1 } };
/** Two model steps' chunks, as a model streams them. */
const steps = [
  ['<thi', 'nk>Let me', ' see</think>Hel', 'lo<execute>[{"name":"a","args":{}}]</execute>'],
  ['Done', '.<end>'],
];

/** Pieces with their neighbours of the same step and kind joined: drafts coalesce chunks into fewer pieces. */
function joined(pieces: readonly LiveText[]) {
  const out: Array<Pick<LiveText, 'step' | 'kind' | 'text' | 'afterSeq'>> = [];
  for (const { step, kind, text, afterSeq } of pieces) {
    const last = out.at(-1);
    if (last?.step === step && last.kind === kind) last.text += text;
    else out.push({ step, kind, text, afterSeq });
  }
  return out;
}

/** A session with a turn and its user message (seq 1) on `log`. */
async function started(log: EventLog, session: string): Promise<void> {
  await log.acquireTurn(session, 't');
  await log.append({ session, turn: 't', key: 'k-user', events: [user], expectedSeq: 1 });
}

/** A model step's life: it reads the session's log, streams `chunks`, and appends its event. */
async function takeStep(log: EventLog, stream: StepStream, session: string, step: number, chunks: string[]) {
  const before = await log.read(session);
  for (const text of chunks) stream.write({ session, step, text });
  const expectedSeq = (before.at(-1)?.seq ?? 0) + 1;
  await log.append({ session, turn: 't', key: `k${step}`, events: [user], expectedSeq });
}

describe.skipIf(dynamoEndpoint === '')("model steps' drafts on DynamoDB Local", () => {
  const client = localDocumentClient();
  const stops: Array<() => void> = [];
  beforeAll(() => ensureEventLogTable(client, tableName));
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  /**
   * A started session on the table: the model step's log and stream, and the API's log and live
   * steps, with a subscriber's pieces in `got`, once the reader's first read is done.
   */
  async function opened() {
    const session = `drafts-${randomUUID()}`;
    const log = new DynamoEventLog({ tableName, client });
    const stream = new DynamoStepStream({ tableName, client });
    const drafts = new DynamoStepDrafts({ tableName, client });
    const live = new DraftLiveSteps(drafts);
    const got: LiveText[] = [];
    stops.push(live.subscribe(session, (text) => got.push(text)));
    const stepLog = stream.watch(log);
    const apiLog = live.watch(log);
    await started(stepLog, session);
    // A read that finds events waits for the reader's drafts: after its first read, then.
    await apiLog.read(session);
    return { session, log, drafts, got, stream, stepLog, apiLog };
  }

  it('hands a subscriber the pieces InMemoryLiveSteps gives for the same chunks, before the step is logged', async () => {
    const { session, got, stream, stepLog, apiLog } = await opened();
    const memory = new InMemoryLiveSteps();
    const memoryLog = memory.watch(new InMemoryEventLog());
    const expected: LiveText[] = [];
    memory.subscribe(session, (text) => expected.push(text));
    await started(memoryLog, session);
    for (const [step, chunks] of steps.entries()) {
      await takeStep(memoryLog, memory, session, step, chunks);
      await takeStep(stepLog, stream, session, step, chunks);
      // The API's read that finds the step's event hands out the step's last pieces first.
      await apiLog.read(session, { afterSeq: 1 + step });
    }
    expect(joined(got)).toEqual(joined(expected));
    expect(joined(got).map(({ step, afterSeq }) => ({ step, afterSeq }))).toEqual([
      { step: 0, afterSeq: 1 },
      { step: 0, afterSeq: 1 },
      { step: 1, afterSeq: 2 },
    ]);
    const numbered = got.map(({ step }, at) => ({
      step,
      index: got.slice(0, at).filter((piece) => piece.step === step).length,
    }));
    expect(got.map(({ step, index }) => ({ step, index }))).toEqual(numbered);
  });

  it('reads while subscribed: a streaming step reaches the subscriber before it is logged', async () => {
    const { session, got, stream, stepLog } = await opened();
    await stepLog.read(session);
    stream.write({ session, step: 0, text: 'Still thinking' });
    await vi.waitFor(() => expect(got.map(({ text }) => text)).toEqual(['Still thinking']), {
      timeout: 5000,
    });
  });

  it('hands out nothing of the step that streamed before the first subscriber', async () => {
    const session = `drafts-${randomUUID()}`;
    const log = new DynamoEventLog({ tableName, client });
    const stream = new DynamoStepStream({ tableName, client });
    const stepLog = stream.watch(log);
    await started(stepLog, session);
    await takeStep(stepLog, stream, session, 0, ['Said before anyone listened.']);
    const live = new DraftLiveSteps(new DynamoStepDrafts({ tableName, client }));
    const got: LiveText[] = [];
    stops.push(live.subscribe(session, (text) => got.push(text)));
    await live.watch(log).read(session);
    await takeStep(stepLog, stream, session, 1, ['Heard.']);
    await live.watch(log).read(session, { afterSeq: 2 });
    expect(got.map(({ step, index, text }) => ({ step, index, text }))).toEqual([
      { step: 1, index: 0, text: 'Heard.' },
    ]);
  });

  it('coalesces the chunks written at once into one draft, and the log never reads drafts as events', async () => {
    const { session, log, drafts, stream, stepLog } = await opened();
    for (const [step, chunks] of steps.entries()) await takeStep(stepLog, stream, session, step, chunks);
    expect((await drafts.after(session)).map(({ step, part, text }) => ({ step, part, text }))).toEqual(
      steps.map((chunks, step) => ({ step, part: 0, text: chunks.join('') })),
    );
    expect((await log.read(session)).map(({ seq, event }) => ({ seq, type: event.type }))).toEqual([
      { seq: 1, type: 'user' },
      { seq: 2, type: 'user' },
      { seq: 3, type: 'user' },
    ]);
  });

  it('drops a draft it cannot write: the step goes on', async () => {
    const stream = new DynamoStepStream({ tableName: 'agentstep-no-such-table', client });
    const log = stream.watch(new InMemoryEventLog());
    await started(log, 's');
    await takeStep(log, stream, 's', 0, ['Lost, ', 'not fatal.']);
    expect((await log.read('s')).map(({ seq }) => seq)).toEqual([1, 2]);
  });
});
