import {
  type ApprovalTokenStore,
  demoTools,
  type EventLog,
  inMemoryStores,
  type Model,
  type ModelPart,
  type ModelRequest,
  type OutcomeStore,
  ScriptedModel,
  submitTurn,
  systemClock,
  type UsageLedger,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LocalEngine, loadAgent, type SynthesizedAgent, startDynamoDbLocal } from '../src/index.js';
import { atMost, row } from './row.js';

/** The session the issue measures: 5,000 model steps of one echo call each, in one turn. */
const STEPS = 5_000;
/** Steps averaged around each measured step, so one slow garbage collection does not decide. */
const AROUND = 20;
/** Per-step time at step 5,000 against step 20 (issue 39). */
const TARGET_GROWTH = 1.5;
/** The scripted model's heap growth from step 1,000 to step 5,000, in MiB: flat. */
const TARGET_MODEL_MIB = 32;

/** A model that marks when each step starts, before the scripted model plays it. */
class MarkingModel implements Model {
  readonly id = 'scripted';
  readonly marks: number[] = [];
  readonly heapAt = new Map<number, number>();

  constructor(readonly inner: ScriptedModel) {}

  stream(request: ModelRequest): AsyncIterable<ModelPart> {
    this.marks.push(performance.now());
    if (request.turnStep === 1_000 || request.turnStep === STEPS - 1) {
      globalThis.gc?.();
      this.heapAt.set(request.turnStep, process.memoryUsage().heapUsed);
    }
    return this.inner.stream(request);
  }
}

/** Step `step`: one echo call, none a call of another step (a repeated call stops the turn). */
const echoStep = (step: number) => `<execute>[{"name":"echo","args":{"text":"call ${step}"}}]</execute>`;

/** Milliseconds per step around step `at`. */
function msAround(marks: readonly number[], at: number): number {
  const from = marks[at - AROUND / 2];
  const to = marks[at + AROUND / 2];
  if (from === undefined || to === undefined)
    throw new Error(`the session ended before step ${at + AROUND / 2}`);
  return (to - from) / AROUND;
}

/** The stores a session runs on: in memory, or on DynamoDB Local. */
type Stores = {
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  approvalTokens: ApprovalTokenStore;
};

async function session(agent: SynthesizedAgent, stores: Stores, name: string) {
  const script = [...Array.from({ length: STEPS }, (_, step) => echoStep(step)), 'Done.'];
  const model = new MarkingModel(new ScriptedModel(script));
  const engine = new LocalEngine({ agent, deps: { ...stores, model, clock: systemClock, tools: demoTools } });
  await submitTurn({ session: name, turn: 't', prompt: 'bench' }, { ...stores, clock: systemClock });
  const { output } = await engine.runTurn({
    session: name,
    turn: 't',
    maxSteps: STEPS + 1,
    stepsPerExecution: 1_000,
  });
  if (output.status !== 'done')
    throw new Error(`the bench turn ended ${output.status}: ${output.message ?? ''}`);
  return model;
}

function rows(label: string, model: MarkingModel): string[] {
  const early = msAround(model.marks, 20);
  const late = msAround(model.marks, STEPS - AROUND);
  const growth = late / early;
  const heapMiB = ((model.heapAt.get(STEPS - 1) ?? 0) - (model.heapAt.get(1_000) ?? 0)) / 2 ** 20;
  return [
    row(`${label}: step 20`, `${early.toFixed(1)} ms`),
    row(`${label}: step ${STEPS - AROUND}`, `${late.toFixed(1)} ms`),
    row(
      `${label}: step ${STEPS - AROUND} / step 20`,
      `${growth.toFixed(2)}x`,
      atMost(growth, TARGET_GROWTH, 'x'),
    ),
    row(
      `${label}: heap growth, step 1,000 → ${STEPS}`,
      `${heapMiB.toFixed(1)} MiB`,
      atMost(heapMiB, TARGET_MODEL_MIB, ' MiB'),
    ),
  ];
}

const agent = await loadAgent();
console.log(`Long session: ${STEPS} model steps of one echo call, in one turn`);
for (const line of rows('in memory', await session(agent, inMemoryStores(), 'long-memory')))
  console.log(line);
const local = await startDynamoDbLocal();
try {
  const documents = DynamoDBDocumentClient.from(local.client);
  await ensureEventLogTable(documents, 'long-session');
  const stores = dynamoStores('long-session', documents);
  for (const line of rows('DynamoDB Local', await session(agent, stores, `long-${Date.now()}`)))
    console.log(line);
} finally {
  await local.stop();
}
