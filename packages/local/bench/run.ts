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
import { LocalEngine, loadAgent, type SynthesizedAgent, startDynamoDbLocal } from '../src/index.js';

const echo = (count: number) =>
  `<execute>${JSON.stringify(Array.from({ length: count }, (_, index) => ({ name: 'echo', args: { text: `call ${index}` } })))}</execute>`;

type Stores = {
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  approvalTokens: ApprovalTokenStore;
};

async function runTurn(agent: SynthesizedAgent, stores: Stores, script: string[], session: string) {
  const engine = new LocalEngine({
    agent,
    deps: { ...stores, model: new ScriptedModel(script), clock: systemClock, tools: demoTools },
  });
  await submitTurn({ session, turn: 't', prompt: 'bench' }, { ...stores, clock: systemClock });
  return engine.runTurn({ session, turn: 't', maxSteps: 1000 });
}

/** Wall time per loop iteration (a one-call step), after a warm-up turn. */
async function overheadPerStep(agent: SynthesizedAgent, stores: Stores, label: string): Promise<string> {
  const steps = 30;
  const script = [...Array.from({ length: steps }, () => echo(1)), 'Done.'];
  const session = label.replaceAll(' ', '-');
  await runTurn(agent, stores, script, `warm-${session}`);
  const { stats } = await runTurn(agent, stores, script, `bench-${session}`);
  return `${label.padEnd(16)}${(stats.wallMs / (steps + 1)).toFixed(1)} ms per model step (${steps} one-call steps + answer: ${stats.wallMs} ms)`;
}

/** State transitions of one loop iteration with N calls; for N = 0, of the final step. */
async function transitionsPerStep(agent: SynthesizedAgent): Promise<string[]> {
  const lines: string[] = [];
  const base = await runTurn(agent, inMemoryStores(), ['Done.'], 'base');
  // StartTurn + (ModelStep, Route, FinishTurn): the final step alone is 3 transitions.
  const finalStep = base.stats.stateTransitions - 1;
  lines.push(verdict('N = 0 (final answer)', finalStep, 3));
  for (let calls = 1; calls <= 8; calls++) {
    const { stats } = await runTurn(agent, inMemoryStores(), [echo(calls), 'Done.'], `n${calls}`);
    lines.push(verdict(`N = ${calls}`, stats.stateTransitions - base.stats.stateTransitions, 3 + calls));
  }
  return lines;
}

function verdict(label: string, transitions: number, target: number): string {
  return `${transitions <= target ? 'PASS' : 'MISS'}  ${label.padEnd(22)}${transitions} transitions (target <= ${target})`;
}

const agent = await loadAgent();
console.log(`AgentStep local engine benchmarks (Node ${process.version}, ${process.arch})`);
console.log('\nState transitions per loop iteration with N tool calls');
for (const line of await transitionsPerStep(agent)) console.log(line);
console.log('\nOrchestration overhead per model step (scripted model, echo tool)');
console.log(await overheadPerStep(agent, inMemoryStores(), 'memory'));
const local = await startDynamoDbLocal();
try {
  const client = DynamoDBDocumentClient.from(local.client);
  await ensureEventLogTable(client, 'bench-events');
  console.log(await overheadPerStep(agent, dynamoStores('bench-events', client), 'DynamoDB Local'));
} finally {
  await local.stop();
}
