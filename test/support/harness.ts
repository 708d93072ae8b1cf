import { randomUUID } from 'node:crypto';
import { LocalEngine, type LocalEngineOptions, loadAgent, type SynthesizedAgent } from '@agentstep/local';
import type { StoredEvent, TurnInput, TurnLimits } from '@agentstep/protocol';
import {
  type ApprovalTokenStore,
  demoTools,
  type EventLog,
  type Model,
  type OutcomeStore,
  ScriptedModel,
  submitTurn,
  systemClock,
  type Tool,
  type UsageLedger,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { localDocumentClient } from './dynamo-client.js';

/** The table every local test agent's session lives in. */
export const LOOP_TABLE = 'agentstep-loop-tests';
let synthesized: SynthesizedAgent | undefined;
let tableReady: Promise<void> | undefined;

/** What one test agent runs with. */
export interface AgentSetup {
  script: ConstructorParameters<typeof ScriptedModel>[0];
  tools?: readonly Tool[];
  chaos?: LocalEngineOptions['chaos'];
  maxConcurrency?: number;
  /** Wraps the scripted model, e.g. to make a step fail. */
  model?: (scripted: Model) => Model;
  /** Named model profiles, as a workflow agent's `REQUIRES` picks one. @default none */
  models?: Readonly<Record<string, Model>>;
  /** Wraps the DynamoDB Local stores, e.g. to inject a fault through a port. */
  stores?: (stores: Stores) => Stores;
  /** Tools whose calls wait for approval. @default none */
  approve?: string[];
  /** The deployment's limits (steps per execution, …). @default the defaults */
  limits?: Partial<TurnLimits>;
  /** Other state machines to host next to the loop, by name. @default none */
  stateMachines?: LocalEngineOptions['stateMachines'];
}

/** The stores a local agent runs on. */
export interface Stores {
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  approvalTokens: ApprovalTokenStore;
}

/** A local agent on DynamoDB Local and the synthesized definition, with a scripted model. */
export async function localAgent(setup: AgentSetup) {
  synthesized ??= await loadAgent();
  const client = localDocumentClient();
  tableReady ??= ensureEventLogTable(client, LOOP_TABLE);
  await tableReady;
  const real = dynamoStores(LOOP_TABLE, client);
  const stores = setup.stores?.(real) ?? real;
  const scripted = new ScriptedModel(setup.script);
  const engine = new LocalEngine({
    agent: synthesized,
    deps: {
      ...stores,
      model: setup.model?.(scripted) ?? scripted,
      ...(setup.models ? { models: setup.models } : {}),
      clock: systemClock,
      tools: setup.tools ?? demoTools,
      ...(setup.maxConcurrency ? { maxConcurrency: setup.maxConcurrency } : {}),
      ...(setup.approve ? { approvals: { tools: setup.approve } } : {}),
      ...(setup.limits ? { limits: setup.limits } : {}),
    },
    ...(setup.chaos ? { chaos: setup.chaos } : {}),
    ...(setup.stateMachines ? { stateMachines: setup.stateMachines } : {}),
  });
  /** Submits a prompt and starts its turn; `run` settles when the turn has ended. */
  const start = async (prompt: string, input: Partial<TurnInput> & { session?: string } = {}) => {
    const session = input.session ?? `s-${randomUUID()}`;
    const turnId = `t-${randomUUID()}`;
    await submitTurn({ session, turn: turnId, prompt }, { ...stores, clock: systemClock });
    const run = engine.runTurn({ ...input, session, turn: turnId });
    return { session, turn: turnId, run };
  };
  /** Submits a prompt and runs the turn to its end. */
  const turn = async (prompt: string, input: Partial<TurnInput> & { session?: string } = {}) => {
    const { session, run } = await start(prompt, input);
    return { ...(await run), session, events: await real.log.read(session) };
  };
  return { turn, start, engine, model: scripted, stores: real };
}

/** A model step that calls the given tools in one batch. */
export function batch(...calls: Array<[string, Record<string, unknown>]>): string {
  return `<execute>${JSON.stringify(calls.map(([name, args]) => ({ name, args })))}</execute>`;
}

/** The items of the result event of a batch, parsed. */
export function resultItems(events: readonly StoredEvent[], batchId: string) {
  const result = events.find((stored) => stored.batch === batchId && stored.event.type === 'result');
  return JSON.parse(result?.event.content ?? '[]') as Array<{
    tool: string;
    status: string;
    content: unknown;
  }>;
}

/** The turn's id differs from run to run: it appears in batch and approval ids and terminal records. */
export const anyTurn = (id: string) => id.replace(/^t-[^.]+/, 'turn');

/** A log as two runs of one script must agree on it: without timestamps, expiry times and turn ids. */
export const canonical = (events: readonly StoredEvent[]) =>
  events.map(({ seq, batch: id, position, event }) => {
    const { timestamp: _, ...rest } = event;
    if (rest.type === 'turn_end') rest.payload = { ...rest.payload, turn: 'turn' };
    if (rest.type === 'approval') {
      const { expires_at: __, ...payload } = rest.payload;
      rest.payload = { ...payload, id: anyTurn(payload.id) };
    }
    return { seq, batch: id && anyTurn(id), position, ...rest };
  });
