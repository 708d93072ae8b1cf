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
import { LocalEngine, loadAgent, startDynamoDbLocal } from '../src/index.js';

const TABLE = 'step-cost';
const STEPS = 210;
/** Steps averaged around each measured step, so one slow garbage collection does not decide. */
const WINDOW = 5;
const TARGET_OVERHEAD_MS = 40;
const TARGET_GROWTH = 1.2;

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

/** One loop iteration's cost (a one-call step: results, model step, tool call), averaged around `step`. */
function costAt(marks: readonly Mark[], step: number) {
  const from = marks[step - Math.floor(WINDOW / 2)];
  const to = marks[step + Math.ceil(WINDOW / 2)];
  if (from === undefined || to === undefined) throw new Error(`The session ended before step ${step}.`);
  return {
    ms: (to.at - from.at) / WINDOW,
    requests: (to.requests - from.requests) / WINDOW,
    bytes: (to.bytes - from.bytes) / WINDOW,
  };
}

function line(pass: boolean, label: string, value: string, target: string): string {
  return `${pass ? 'PASS' : 'MISS'}  ${label.padEnd(34)}${value.padStart(14)}  (target ${target})`;
}

const agent = await loadAgent();
const local = await startDynamoDbLocal();
try {
  const counters = meter(local.client);
  const client = DynamoDBDocumentClient.from(local.client);
  await ensureEventLogTable(client, TABLE);
  const stores = dynamoStores(TABLE, client);
  const echo = '<execute>[{"name": "echo", "args": {"text": "one call"}}]</execute>';
  const script = [...Array.from({ length: STEPS }, () => echo), 'Done.'];
  const model = new MarkingModel(new ScriptedModel(script), counters);
  const engine = new LocalEngine({
    agent,
    deps: { ...stores, model, clock: systemClock, tools: demoTools },
  });
  // A first session warms the JIT and the connections up; the second one is measured.
  for (const session of ['warm-up', 'long']) {
    await submitTurn({ session, turn: 't', prompt: 'bench' }, { ...stores, clock: systemClock });
    model.marks.length = 0;
    await engine.runTurn({ session, turn: 't', maxSteps: STEPS + 1 });
  }

  const early = costAt(model.marks, 20);
  const late = costAt(model.marks, 200);
  console.log('\nCost of one model step in one long session (DynamoDB Local; one echo call per step)');
  for (const [label, cost] of [
    ['step 20', early],
    ['step 200', late],
  ] as const) {
    console.log(
      line(
        cost.ms <= TARGET_OVERHEAD_MS,
        `${label}: orchestration overhead`,
        `${cost.ms.toFixed(1)} ms`,
        `<= ${TARGET_OVERHEAD_MS} ms`,
      ),
    );
    console.log(
      `      ${`${label}: DynamoDB round trips`.padEnd(34)}${cost.requests.toFixed(1).padStart(14)}`,
    );
    console.log(`      ${`${label}: bytes read`.padEnd(34)}${cost.bytes.toFixed(0).padStart(14)}`);
  }
  for (const [label, ratio] of [
    ['overhead', late.ms / early.ms],
    ['round trips', late.requests / early.requests],
    ['bytes read', late.bytes / early.bytes],
  ] as const) {
    console.log(
      line(
        ratio <= TARGET_GROWTH,
        `step 200 / step 20: ${label}`,
        `${ratio.toFixed(2)}x`,
        `<= ${TARGET_GROWTH}x`,
      ),
    );
  }
} finally {
  await local.stop();
}
