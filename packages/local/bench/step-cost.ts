import {
  demoTools,
  type Model,
  type ModelPart,
  type ModelRequest,
  ScriptedModel,
  submitTurn,
  systemClock,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LocalEngine, loadAgent, type SynthesizedAgent, startDynamoDbLocal } from '../src/index.js';
import { atMost, row } from './row.js';

const TABLE = 'step-cost';
const STEPS = 210;
/** Steps averaged around each measured step, so one slow garbage collection does not decide. */
const WINDOW = 5;
const TARGET_OVERHEAD_MS = 40;
const TARGET_GROWTH = 1.2;
/** Calls per step of the round-trip rows (issue 30 measures N = 1, 3 and 8). */
const CALLS_PER_STEP = [1, 3, 8];
/** Steps of each round-trip session: the first and the last are left out of the average. */
const ROUND_TRIP_STEPS = 8;
/** Round trips per step with N calls today; issue 30 lowers the target to 2N + 4. */
const todaysRoundTrips = (calls: number) => 3 * calls + 7;
const issue30RoundTrips = (calls: number) => 2 * calls + 4;

/** DynamoDB requests made and response bytes received so far. */
interface Counters {
  requests: number;
  bytes: number;
}

/** Where the loop was when a model step started: the time and the counters. */
interface Mark extends Counters {
  at: number;
}

/** Counts every request the client sends and the bytes of every response, as the wire carries them. */
function meter(client: DynamoDBClient): Counters {
  const counters = { requests: 0, bytes: 0 };
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      counters.requests++;
      const length = (result.response as { headers?: Record<string, string> }).headers?.['content-length'];
      counters.bytes += Number(length ?? 0);
      return result;
    },
    { step: 'deserialize', name: 'stepCostMeter' },
  );
  return counters;
}

/** A scripted model that marks the clock and the counters as each step starts. */
class MarkingModel implements Model {
  readonly id = 'scripted';
  readonly marks: Mark[] = [];

  constructor(
    private readonly inner: Model,
    private readonly counters: Counters,
  ) {}

  stream(request: ModelRequest): AsyncIterable<ModelPart> {
    this.marks.push({ at: performance.now(), ...this.counters });
    return this.inner.stream(request);
  }
}

/** One loop iteration's cost between the starts of two model steps, averaged over `steps` steps. */
function costBetween(marks: readonly Mark[], first: number, steps: number) {
  const from = marks[first];
  const to = marks[first + steps];
  if (from === undefined || to === undefined)
    throw new Error(`The session ended before step ${first + steps}.`);
  return {
    ms: (to.at - from.at) / steps,
    requests: (to.requests - from.requests) / steps,
    bytes: (to.bytes - from.bytes) / steps,
  };
}

/** One loop iteration's cost (a one-call step: results, model step, tool call), averaged around `step`. */
function costAt(marks: readonly Mark[], step: number) {
  return costBetween(marks, step - Math.floor(WINDOW / 2), WINDOW);
}

/** The step cost bench on one DynamoDB Local: the table, a metered client, an engine per script. */
function stepCostRig(agent: SynthesizedAgent, client: DynamoDBClient) {
  const counters = meter(client);
  const documents = DynamoDBDocumentClient.from(client);
  const stores = dynamoStores(TABLE, documents);
  /** Runs one turn of `script` in `session`; the model steps' marks. */
  const run = async (session: string, script: string[]): Promise<Mark[]> => {
    const model = new MarkingModel(new ScriptedModel(script), counters);
    const engine = new LocalEngine({
      agent,
      deps: { ...stores, model, clock: systemClock, tools: demoTools },
    });
    await submitTurn({ session, turn: 't', prompt: 'bench' }, { ...stores, clock: systemClock });
    await engine.runTurn({ session, turn: 't', maxSteps: script.length });
    return model.marks;
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
async function longSessionRows(run: ReturnType<typeof stepCostRig>['run']): Promise<string[]> {
  const script = [...Array.from({ length: STEPS }, (_, step) => echoStep(1, step)), 'Done.'];
  // A first session warms the JIT and the connections up; the second one is measured.
  await run('warm-up', script);
  const marks = await run('long', script);
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
    ['bytes read', late.bytes / early.bytes],
  ] as const) {
    rows.push(row(`step 200 / step 20: ${label}`, `${ratio.toFixed(2)}x`, atMost(ratio, TARGET_GROWTH, 'x')));
  }
  return rows;
}

/** Rows of DynamoDB round trips per loop iteration with N calls, against today's 3N + 7. */
async function roundTripRows(run: ReturnType<typeof stepCostRig>['run']): Promise<string[]> {
  const rows: string[] = [];
  for (const calls of CALLS_PER_STEP) {
    const script = [...Array.from({ length: ROUND_TRIP_STEPS }, (_, step) => echoStep(calls, step)), 'Done.'];
    const marks = await run(`round-trips-${calls}`, script);
    const { requests } = costBetween(marks, 1, ROUND_TRIP_STEPS - 2);
    const target = todaysRoundTrips(calls);
    rows.push(
      row(`N = ${calls}: DynamoDB round trips per step`, requests.toFixed(1), {
        met: requests <= target,
        text: `<= 3N + 7 = ${target} today; issue 30: 2N + 4 = ${issue30RoundTrips(calls)}`,
      }),
    );
  }
  return rows;
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
} finally {
  await local.stop();
}
