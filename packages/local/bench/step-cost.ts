import {
  type CallRef,
  demoTools,
  eventLogWith,
  type OutcomeStore,
  ScriptedModel,
  submitTurn,
  systemClock,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LocalEngine, loadAgent, type SynthesizedAgent, startDynamoDbLocal } from '../src/index.js';
import { costPerMillionSteps, floorUsage, LIST_PRICES, type StepUsage } from './cost-model.js';
import { costBetween, type Mark, MarkingModel, meter } from './meter.js';
import { atMost, row } from './row.js';

const TABLE = 'step-cost';
const STEPS = 210;
/** Steps averaged around each measured step, so one slow garbage collection does not decide. */
const WINDOW = 5;
const TARGET_OVERHEAD_MS = 40;
const TARGET_GROWTH = 1.2;
/** Bytes a step may read whatever step 20 read: less than one event's head. */
const SMALL_READ_BYTES = 1024;
/** Calls per step of the round-trip rows (issue 30 measures N = 1, 3 and 8). */
const CALLS_PER_STEP = [1, 3, 8];
/** Steps of each round-trip session: the first and the last are left out of the average. */
const ROUND_TRIP_STEPS = 8;
/** Round trips per step with N calls before issue 30, and its target. */
const preIssue30RoundTrips = (calls: number) => 3 * calls + 7;
const targetRoundTrips = (calls: number) => 2 * calls + 4;
/** Steps of each overhead session (the first two and last two are left out), and sessions per path. */
const OVERHEAD_STEPS = 24;
const OVERHEAD_ROUNDS = 3;
/** Issue 30: today's per-step overhead at most this much of the path before it. */
const TARGET_OVERHEAD_RATIO = 0.6;

/** One loop iteration's cost (a one-call step: results, model step, tool call), averaged around `step`. */
function costAt(marks: readonly Mark[], step: number) {
  return costBetween(marks, step - Math.floor(WINDOW / 2), WINDOW);
}

/**
 * The stores with the reads a step made before issue 30 put back, each where it was on the step's
 * path, so the bench can measure the old path in the same run: a model step's log read then its
 * marker and head read together (a snapshot reads both at once now, and after a batch's result
 * the step reads nothing: its process holds the log and its append reported the head), the head read again before a
 * batch runs (the step's append reports a cancel now), and each call's read of its event beside
 * its outcome's before it ran (its map item carries it now, and an idempotent tool's call reads
 * nothing first), and the batch's outcomes read before its result (its calls carry them back now).
 * Bench only: 3N + 7 round trips, as before.
 */
function withPreIssue30Reads(stores: Stores): Omit<Stores, 'outcomes'> & { outcomes: OutcomeStore } {
  const { log, outcomes } = stores;
  /** A call's outcome and its event, read together before it ran. */
  const callReads = (call: CallRef) =>
    Promise.all([outcomes.get(call), log.read(call.session, { afterSeq: 1 << 30 })]);
  return {
    ...stores,
    log: eventLogWith(log, {
      // No step starts on what its process appended: each reads the log and head first.
      heldThrough: () => undefined,
      snapshot: async (session, options) => {
        const snapshot = await log.snapshot(session, options);
        await Promise.all([log.appended(session, 'model:pre-issue-30'), log.holder(session)]);
        return snapshot;
      },
      append: async (request) => {
        // A batch's result: its outcomes were read from the store first (calls carry them back now).
        const closed = request.key.startsWith('result:') ? request.events[0]?.event : undefined;
        if (closed?.type === 'result')
          await outcomes.list(
            request.session,
            request.key.slice('result:'.length),
            closed.payload.tools_executed,
          );
        const appended = await log.append(request);
        if (request.events.some(({ event }) => event.type === 'call')) await log.holder(request.session);
        return appended;
      },
    }),
    outcomes: {
      markStarted: (call) => outcomes.markStarted(call),
      started: (call) => outcomes.started(call),
      list: (session, batch, count) => outcomes.list(session, batch, count),
      get: async (call) => {
        readFirst.add(refKey(call));
        const [outcome] = await callReads(call);
        return outcome;
      },
      // A call that runs with no read before it (an idempotent tool's) made both reads first.
      put: async (call, outcome) => {
        if (!readFirst.delete(refKey(call))) await callReads(call);
        return outcomes.put(call, outcome);
      },
    },
  };
}

/** The calls whose outcome was read before it was put, as every call's was before issue 30. */
const readFirst = new Set<string>();
const refKey = (call: CallRef) => `${call.session}/${call.batch}/${call.position}`;

type Stores = ReturnType<typeof dynamoStores>;
type Run = ReturnType<typeof stepCostRig>['run'];

/** A turn's marks (each model step's start, then its end) and its state transitions. */
interface TurnMarks {
  marks: Mark[];
  transitions: number;
}

/** The step cost bench on one DynamoDB Local: the table, a metered client, an engine per script. */
function stepCostRig(agent: SynthesizedAgent, client: DynamoDBClient) {
  const counters = meter(client);
  const documents = DynamoDBDocumentClient.from(client);
  const current = dynamoStores(TABLE, documents);
  const preIssue30 = withPreIssue30Reads(current);
  /**
   * Runs one turn of `script` in `session` (on the path before issue 30 if asked): a mark as each
   * model step starts and one at the turn's end, and the turn's state transitions.
   */
  const run = async (
    session: string,
    script: string[],
    path: 'current' | 'pre-issue-30' = 'current',
  ): Promise<TurnMarks> => {
    const stores = path === 'current' ? current : preIssue30;
    const model = new MarkingModel(new ScriptedModel(script), counters);
    const engine = new LocalEngine({
      agent,
      deps: { ...stores, model, clock: systemClock, tools: demoTools },
    });
    await submitTurn({ session, turn: 't', prompt: 'bench' }, { ...stores, clock: systemClock });
    const { stats } = await engine.runTurn({ session, turn: 't', maxSteps: script.length });
    return {
      marks: [...model.marks, { at: performance.now(), ...counters }],
      transitions: stats.stateTransitions,
    };
  };
  return { ready: ensureEventLogTable(documents, TABLE), run };
}

/**
 * Model step `step`, which calls echo `calls` times in one batch, none a call of another step (a
 * repeated call stops the turn: decision 0030).
 */
function echoStep(calls: number, step: number): string {
  const batch = Array.from({ length: calls }, (_, index) => ({
    name: 'echo',
    args: { text: `call ${step}.${index}` },
  }));
  return `<execute>${JSON.stringify(batch)}</execute>`;
}

/** Rows of one long session's cost at step 20 and step 200, and how it grew. */
async function longSessionRows(run: Run): Promise<string[]> {
  const script = [...Array.from({ length: STEPS }, (_, step) => echoStep(1, step)), 'Done.'];
  // A first session warms the JIT and the connections up; the second one is measured.
  await run('warm-up', script);
  const { marks } = await run('long', script);
  const early = costAt(marks, 20);
  const late = costAt(marks, 200);
  const rows: string[] = [];
  for (const [label, cost] of [
    ['step 20', early],
    ['step 200', late],
  ] as const) {
    rows.push(
      row(
        `${label}: orchestration overhead`,
        `${cost.ms.toFixed(1)} ms`,
        atMost(cost.ms, TARGET_OVERHEAD_MS, ' ms'),
      ),
      row(`${label}: DynamoDB round trips`, cost.requests.toFixed(1)),
      row(`${label}: bytes read`, cost.bytes.toFixed(0)),
    );
  }
  for (const [label, ratio] of [
    ['overhead', late.ms / early.ms],
    ['round trips', late.requests / early.requests],
  ] as const) {
    rows.push(row(`step 200 / step 20: ${label}`, `${ratio.toFixed(2)}x`, atMost(ratio, TARGET_GROWTH, 'x')));
  }
  // A step that reads next to nothing (since issue 30, most read nothing) cannot grow by a ratio.
  const bytesRatio = late.bytes / Math.max(early.bytes, 1);
  rows.push(
    row(`step 200 / step 20: bytes read`, `${bytesRatio.toFixed(2)}x`, {
      met: bytesRatio <= TARGET_GROWTH || late.bytes <= SMALL_READ_BYTES,
      text: `<= ${TARGET_GROWTH}x, or step 200 under ${SMALL_READ_BYTES} bytes`,
    }),
  );
  return rows;
}

/** Rows of DynamoDB round trips per loop iteration with N calls, against issue 30's 2N + 4. */
async function roundTripRows(run: Run): Promise<string[]> {
  // N = 0: the step that answers, from its model call to its turn's end (no batch follows it).
  const [start, end] = (await run('round-trips-0', ['Done.'])).marks;
  const answering = (end?.requests ?? 0) - (start?.requests ?? 0);
  const rows = [roundTripRow(0, answering, ' (the answering step, its turn’s end included)')];
  for (const calls of CALLS_PER_STEP) {
    const script = [...Array.from({ length: ROUND_TRIP_STEPS }, (_, step) => echoStep(calls, step)), 'Done.'];
    const { marks } = await run(`round-trips-${calls}`, script);
    rows.push(roundTripRow(calls, costBetween(marks, 1, ROUND_TRIP_STEPS - 2).requests));
  }
  return rows;
}

/**
 * Rows of what a step with N calls costs per million steps at list prices: its request units and
 * transitions as measured (transitions: a turn of tool steps less a turn that only answers, per
 * step), its Lambda invocations (the AdvanceTurn task and one per call), and the floor beside it.
 */
async function costRows(run: Run): Promise<string[]> {
  const fixed = (await run('cost-0', ['Done.'])).transitions;
  const rows: string[] = [];
  for (const calls of [1, 3]) {
    const script = [...Array.from({ length: ROUND_TRIP_STEPS }, (_, step) => echoStep(calls, step)), 'Done.'];
    const { marks, transitions } = await run(`cost-${calls}`, script);
    const measured = costBetween(marks, 1, ROUND_TRIP_STEPS - 2);
    const usage: StepUsage = {
      readUnits: measured.readUnits,
      writeUnits: measured.writeUnits,
      transitions: (transitions - fixed) / ROUND_TRIP_STEPS,
      lambdaInvocations: 1 + calls,
    };
    rows.push(
      costRow(`N = ${calls}: per million steps`, usage),
      costRow(`N = ${calls}: the floor`, floorUsage(calls)),
    );
  }
  return rows;
}

function costRow(label: string, usage: StepUsage): string {
  const cost = costPerMillionSteps(usage);
  const parts = `${usage.readUnits.toFixed(1)} RRU, ${usage.writeUnits.toFixed(1)} WRU ($${cost.dynamodb.toFixed(2)}); ${usage.transitions.toFixed(0)} transitions ($${cost.transitions.toFixed(2)}); ${usage.lambdaInvocations} Lambda requests ($${cost.lambda.toFixed(2)})`;
  return `${row(label, `$${cost.total.toFixed(2)}`)}  ${parts}`;
}

function roundTripRow(calls: number, requests: number, what = ''): string {
  const target = targetRoundTrips(calls);
  return row(`N = ${calls}: DynamoDB round trips per step${what}`, requests.toFixed(1), {
    met: requests <= target,
    text: `<= 2N + 4 = ${target}; before issue 30: 3N + 7 = ${preIssue30RoundTrips(calls)}`,
  });
}

/**
 * Rows of the per-step overhead (one echo call a step) on today's path and on the path before
 * issue 30 (its reads put back), measured in the same run, alternately, on DynamoDB Local.
 */
async function overheadRows(run: Run): Promise<string[]> {
  const script = [...Array.from({ length: OVERHEAD_STEPS }, (_, step) => echoStep(1, step)), 'Done.'];
  const costs = { current: [] as number[], 'pre-issue-30': [] as number[] };
  const requests = { current: 0, 'pre-issue-30': 0 };
  for (let round = 0; round < OVERHEAD_ROUNDS; round++) {
    for (const path of ['pre-issue-30', 'current'] as const) {
      const { marks } = await run(`overhead-${path}-${round}`, script, path);
      const cost = costBetween(marks, 2, OVERHEAD_STEPS - 4);
      costs[path].push(cost.ms);
      requests[path] = cost.requests;
    }
  }
  const before = median(costs['pre-issue-30']);
  const now = median(costs.current);
  return [
    row('before issue 30: per-step overhead', `${before.toFixed(1)} ms`),
    row('before issue 30: DynamoDB round trips per step', requests['pre-issue-30'].toFixed(1)),
    row('today: per-step overhead', `${now.toFixed(1)} ms`),
    row('today: DynamoDB round trips per step', requests.current.toFixed(1)),
    row(
      'today / before issue 30: per-step overhead',
      `${(now / before).toFixed(2)}x`,
      atMost(now / before, TARGET_OVERHEAD_RATIO, 'x'),
    ),
  ];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const agent = await loadAgent();
const local = await startDynamoDbLocal();
try {
  const { ready, run } = stepCostRig(agent, local.client);
  await ready;
  console.log('\nCost of one model step in one long session (DynamoDB Local; one echo call per step)');
  for (const line of await longSessionRows(run)) console.log(line);
  console.log(
    `\nDurable per-step overhead: DynamoDB round trips per step with N echo calls (DynamoDB Local, mean of steps 2–${ROUND_TRIP_STEPS - 1})`,
  );
  for (const line of await roundTripRows(run)) console.log(line);
  console.log(
    '\nPer-step overhead today and before issue 30, in the same run (DynamoDB Local, one echo call per step, median of 3 sessions each)',
  );
  for (const line of await overheadRows(run)) console.log(line);
  console.log(
    `\nCost per million steps at list prices (${LIST_PRICES.region}, ${LIST_PRICES.date}: DynamoDB on-demand $0.125/M RRU and $0.625/M WRU, Step Functions Standard $0.025 per 1,000 transitions, Lambda $0.20/M requests; model tokens and Lambda duration left out)`,
  );
  for (const line of await costRows(run)) console.log(line);
} finally {
  await local.stop();
}
