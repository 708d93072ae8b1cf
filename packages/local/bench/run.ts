import {
  type ApprovalTokenStore,
  demoTools,
  type EventLog,
  inMemoryStores,
  type OutcomeStore,
  ScriptedModel,
  submitTurn,
  systemClock,
  type UsageLedger,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  type EngineEvent,
  LocalEngine,
  loadAgent,
  type SynthesizedAgent,
  startDynamoDbLocal,
} from '../src/index.js';
import { atMost, row } from './row.js';

/**
 * States every turn enters once, its final model step included: StartTurn, Requested, ModelStep,
 * Route, FinishTurn, TurnEnded and a Publish state (issue 30: 7; before it 9, with DescribeTurn and
 * Done).
 */
const FIXED_TRANSITIONS = 7;
const FIXED_TRANSITIONS_BEFORE_ISSUE_30 = 9;
/** States each tool step adds: RunTools, one InvokeTool per call, AdvanceTurn and Route. */
const toolStepTransitions = (calls: number) => 3 + calls;
/** Per-step overhead on DynamoDB Local, as `step-cost.ts` holds it. */
const TARGET_OVERHEAD_MS = 40;

/** Step `step`'s `count` echo calls, none a call of another step (a repeated call stops the turn: decision 0030). */
const echo = (count: number, step: number) =>
  `<execute>${JSON.stringify(Array.from({ length: count }, (_, index) => ({ name: 'echo', args: { text: `call ${step}.${index}` } })))}</execute>`;

type Stores = {
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  approvalTokens: ApprovalTokenStore;
};

async function runTurn(
  agent: SynthesizedAgent,
  stores: Stores,
  script: string[],
  session: string,
  onEvent?: (event: EngineEvent) => void,
) {
  const engine = new LocalEngine({
    agent,
    deps: { ...stores, model: new ScriptedModel(script), clock: systemClock, tools: demoTools },
    ...(onEvent ? { onEvent } : {}),
  });
  await submitTurn({ session, turn: 't', prompt: 'bench' }, { ...stores, clock: systemClock });
  return engine.runTurn({ session, turn: 't', maxSteps: 1000 });
}

/** Wall time per loop iteration (a one-call step), after a warm-up turn. */
async function overheadPerStep(agent: SynthesizedAgent, stores: Stores, label: string, targetMs?: number) {
  const steps = 30;
  const script = [...Array.from({ length: steps }, (_, step) => echo(1, step)), 'Done.'];
  const session = label.replaceAll(' ', '-');
  await runTurn(agent, stores, script, `warm-${session}`);
  const { stats } = await runTurn(agent, stores, script, `bench-${session}`);
  const ms = stats.wallMs / (steps + 1);
  return row(
    `${label}: overhead per model step`,
    `${ms.toFixed(1)} ms`,
    targetMs === undefined ? undefined : atMost(ms, targetMs, ' ms'),
  );
}

/** The states a turn that answers at once enters, in order: what every turn pays. */
async function fixedStates(agent: SynthesizedAgent): Promise<string[]> {
  const entered: string[] = [];
  await runTurn(agent, inMemoryStores(), ['Done.'], 'fixed', (event) => {
    if (event.type === 'StateEntered' && event.state) entered.push(event.state.name);
  });
  return entered;
}

/** State transitions of whole turns, against 7 fixed plus 3 + N per tool step with N calls (9 fixed before issue 30). */
async function transitionsPerTurn(agent: SynthesizedAgent): Promise<string[]> {
  const turns: Array<[string, number[]]> = [
    ['answer only', []],
    ...Array.from({ length: 8 }, (_, index): [string, number[]] => [
      `one tool step, N = ${index + 1}`,
      [index + 1],
    ]),
    ['three tool steps, N = 1, 2, 3', [1, 2, 3]],
  ];
  const lines: string[] = [];
  for (const [label, steps] of turns) {
    const script = [...steps.map((calls, step) => echo(calls, step)), 'Done.'];
    const { stats } = await runTurn(agent, inMemoryStores(), script, `transitions-${steps.join('-')}`);
    const perStep = steps.reduce((sum, calls) => sum + toolStepTransitions(calls), 0);
    const target = atMost(stats.stateTransitions, FIXED_TRANSITIONS + perStep);
    target.text += `; before issue 30: ${FIXED_TRANSITIONS_BEFORE_ISSUE_30 + perStep}`;
    lines.push(row(label, `${stats.stateTransitions} transitions`, target));
  }
  return lines;
}

const agent = await loadAgent();
console.log(`AgentStep local engine benchmarks (Node ${process.version}, ${process.arch})`);
console.log(
  `\nState transitions per turn: ${FIXED_TRANSITIONS} fixed, plus 3 + N per tool step with N calls`,
);
console.log(`      fixed: ${(await fixedStates(agent)).join(' → ')}`);
for (const line of await transitionsPerTurn(agent)) console.log(line);
console.log('\nOrchestration overhead per model step (scripted model; 30 one-call steps and an answer)');
console.log(await overheadPerStep(agent, inMemoryStores(), 'memory'));
const local = await startDynamoDbLocal();
try {
  const client = DynamoDBDocumentClient.from(local.client);
  await ensureEventLogTable(client, 'bench-events');
  console.log(
    await overheadPerStep(agent, dynamoStores('bench-events', client), 'DynamoDB Local', TARGET_OVERHEAD_MS),
  );
} finally {
  await local.stop();
}
