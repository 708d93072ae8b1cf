import {
  demoTools,
  type EventLog,
  eventLogWith,
  type Model,
  type ModelPart,
  ScriptedModel,
  submitTurn,
  systemClock,
} from '@agentstep/runtime';
import { DynamoEventLog, dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LocalEngine, loadAgent, startDynamoDbLocal } from '../src/index.js';
import { costBetween, type Mark, MarkingModel, meter } from './meter.js';
import { atMost, row } from './row.js';

const TABLE = 'cold-steps';
/** The session the issue measures: 300 model steps of one echo call each, in one turn. */
const STEPS = 300;
/** Steps averaged around each measured step (a compaction's step costs more than the others). */
const AROUND = 9;
/** Characters each call echoes: a call and its result of about 1 KB each, as a file read gives. */
const ECHOED_CHARS = 1_000;
/**
 * The model's window, in tokens: a small model's (16k), which the session fills by step 25; from
 * there on, compaction keeps its context between half the room and `compactAt` of the window.
 */
const WINDOW_TOKENS = 16_000;
/** Calls per step (N), and issue 39's targets: bytes read at step 290 within 2× step 20's, N + 4 round trips. */
const CALLS = 1;
const TARGET_BYTES_GROWTH = 2;
const TARGET_ROUND_TRIPS = CALLS + 4;

/** A summarizer that writes the same short summary every time, so every compaction costs the same. */
const summarizer: Model = {
  id: 'summarizer',
  async *stream(): AsyncIterable<ModelPart> {
    yield { inputTokens: 10_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 };
    yield `They echoed numbered lines of ${ECHOED_CHARS} characters, one a step, each coming back whole.`;
  },
};

/** Model step `step`'s reply: one echo of a long numbered line. */
function echoStep(step: number): string {
  const text = `line ${step} `.padEnd(ECHOED_CHARS, '.');
  return `<execute>[{"name":"echo","args":{"text":"${text}"}}]</execute>`;
}

/**
 * How the model step reads its log: `cold`, in a process that never read the session (no cache: every
 * step reads from the context's start); `before 0039`, the same but from seq 1, as before decision 0039.
 */
type Path = 'cold' | 'before 0039';

/** The round trips of the median step among the `AROUND` steps around `step` (a compacting step makes one more). */
function medianRoundTrips(marks: readonly Mark[], step: number): number {
  const first = step - Math.floor(AROUND / 2);
  const perStep = Array.from(
    { length: AROUND },
    (_, index) => (marks[first + index + 1]?.requests ?? 0) - (marks[first + index]?.requests ?? 0),
  ).sort((a, b) => a - b);
  return perStep[Math.floor(AROUND / 2)] ?? Number.NaN;
}

const agent = await loadAgent();
const local = await startDynamoDbLocal();
try {
  const counters = meter(local.client);
  const documents = DynamoDBDocumentClient.from(local.client);
  await ensureEventLogTable(documents, TABLE);
  const stores = dynamoStores(TABLE, documents);
  const uncached = new DynamoEventLog({ tableName: TABLE, client: documents });
  const logs: Record<Path, EventLog> = {
    cold: uncached,
    'before 0039': eventLogWith(uncached, {
      snapshot: (session, options) => uncached.snapshot(session, { afterSeq: options?.afterSeq ?? 0 }),
    }),
  };
  /** Runs the 300-step turn on `path`: a mark as each model step starts, and one at the turn's end. */
  const run = async (session: string, path: Path, windowTokens?: number): Promise<Mark[]> => {
    const model = new MarkingModel(
      new ScriptedModel([...Array.from({ length: STEPS }, (_, step) => echoStep(step + 1)), 'Done.']),
      counters,
    );
    const context = windowTokens === undefined ? {} : { context: { windowTokens, summaryModel: summarizer } };
    const deps = { ...stores, log: logs[path], model, clock: systemClock, tools: demoTools, ...context };
    const engine = new LocalEngine({ agent, deps });
    await submitTurn({ session, turn: 't', prompt: 'Echo long lines.' }, deps);
    await engine.runTurn({ session, turn: 't', maxSteps: STEPS + 1 });
    return [...model.marks, { at: performance.now(), ...counters }];
  };
  const around = (marks: readonly Mark[], step: number) =>
    costBetween(marks, step - Math.floor(AROUND / 2), AROUND);

  console.log(
    `\nA ${STEPS}-step session stepped in processes that never read it (DynamoDB Local; one echo call of ${ECHOED_CHARS} characters a step; a ${WINDOW_TOKENS / 1000}k-token window, compacted by a summary; mean of the ${AROUND} steps around each)`,
  );
  const cold = await run('cold', 'cold', WINDOW_TOKENS);
  const before = await run('before-0039', 'before 0039', WINDOW_TOKENS);
  const unbounded = await run('no-window', 'cold');
  const [early, middle, late] = [20, 150, 290].map((step) => around(cold, step));
  if (early === undefined || middle === undefined || late === undefined) throw new Error('unreachable');
  const growth = late.bytes / early.bytes;
  for (const [label, cost] of [
    ['step 20', early],
    ['step 150', middle],
    ['step 290', late],
  ] as const)
    console.log(row(`${label}: bytes read per step`, cost.bytes.toFixed(0)));
  const roundTrips = medianRoundTrips(cold, 290);
  const compactions = cold.filter(
    (mark, index) => (cold[index + 1]?.requests ?? 0) - mark.requests > roundTrips,
  ).length;
  console.log(
    row('step 290 / step 20: bytes read', `${growth.toFixed(2)}x`, atMost(growth, TARGET_BYTES_GROWTH, 'x')),
    `\n${row(
      'steps around 290: DynamoDB round trips, median step',
      roundTrips.toFixed(0),
      atMost(roundTrips, TARGET_ROUND_TRIPS, ` (N + 4, N = ${CALLS})`),
    )}`,
    `\n${row(`… mean, with ${compactions} steps of ${STEPS} compacting (+1 append)`, late.requests.toFixed(1))}`,
    `\n${row('before decision 0039: step 290 bytes read', around(before, 290).bytes.toFixed(0))}`,
    `\n${row('no window (nothing compacts): step 290 bytes read', around(unbounded, 290).bytes.toFixed(0))}`,
  );
} finally {
  await local.stop();
}
