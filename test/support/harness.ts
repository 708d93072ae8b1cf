import { randomUUID } from 'node:crypto';
import { LocalEngine, type LocalEngineOptions, type SynthesizedAgent } from '@agentstep/local';
import { loadTestAgent } from '@agentstep/local/testing';
import type { RunawayLimits, StoredEvent, TurnInput, TurnLimits } from '@agentstep/protocol';
import {
  type ApprovalTokenStore,
  type ContextOptions,
  defineTool,
  demoTools,
  type EventLog,
  inMemoryStores,
  type Model,
  type OutcomeStore,
  ScriptedModel,
  submitTurn,
  systemClock,
  type Tool,
  type UsageLedger,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { readUntil } from '@agentstep/runtime/testing';
import { onTestFinished } from 'vitest';
import * as z from 'zod';
import { localDocumentClient } from './dynamo-client.js';

/** The table every local test agent's session lives in. */
export const LOOP_TABLE = 'agentstep-loop-tests';
let synthesized: SynthesizedAgent | undefined;
let tableReady: Promise<void> | undefined;

/**
 * Where a test agent's stores live: the run's DynamoDB Local, or process memory
 * (`inMemoryStores()`, a fresh set per agent), which the adapter contract suites prove equivalent.
 */
export type Storage = 'dynamodb-local' | 'memory';

/** What one test agent runs with. */
export interface AgentSetup {
  script: ConstructorParameters<typeof ScriptedModel>[0];
  /** @default 'dynamodb-local' */
  storage?: Storage;
  tools?: readonly Tool[];
  chaos?: LocalEngineOptions['chaos'];
  maxConcurrency?: number;
  /** Wraps the scripted model, e.g. to make a step fail. */
  model?: (scripted: Model) => Model;
  /** Named model profiles, as a workflow agent's `REQUIRES` picks one. @default none */
  models?: Readonly<Record<string, Model>>;
  /** Wraps the stores, e.g. to inject a fault through a port. */
  stores?: (stores: Stores) => Stores;
  /** Tools whose calls wait for approval. @default none */
  approve?: string[];
  /** The deployment's limits (steps per execution, …). @default the defaults */
  limits?: Partial<TurnLimits & RunawayLimits>;
  /** Other state machines to host next to the loop, by name. @default none */
  stateMachines?: LocalEngineOptions['stateMachines'];
  /** How model steps keep the context within the window. @default the scripted model's: none known */
  context?: ContextOptions;
}

/** The stores a local agent runs on. */
export interface Stores {
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  approvalTokens: ApprovalTokenStore;
}

/** The agent's synthesized definition, as every local test agent runs it: synthesized once per run. */
export async function synthesizedAgent(): Promise<SynthesizedAgent> {
  synthesized ??= await loadTestAgent();
  return synthesized;
}

/** The stores of a new agent: on {@link LOOP_TABLE} of the run's DynamoDB Local, or new in-memory ones. */
async function storesOn(storage: Storage): Promise<Stores> {
  if (storage === 'memory') return inMemoryStores();
  const client = localDocumentClient();
  tableReady ??= ensureEventLogTable(client, LOOP_TABLE);
  await tableReady;
  return dynamoStores(LOOP_TABLE, client);
}

/** A local agent on the synthesized definition and DynamoDB Local (or memory), with a scripted model. */
export async function localAgent(setup: AgentSetup) {
  const agent = await synthesizedAgent();
  const real = await storesOn(setup.storage ?? 'dynamodb-local');
  const stores = setup.stores?.(real) ?? real;
  const scripted = new ScriptedModel(setup.script);
  const engine = new LocalEngine({
    agent,
    deps: {
      ...stores,
      model: setup.model?.(scripted) ?? scripted,
      ...(setup.models ? { models: setup.models } : {}),
      clock: systemClock,
      tools: setup.tools ?? demoTools,
      ...(setup.maxConcurrency ? { maxConcurrency: setup.maxConcurrency } : {}),
      ...(setup.approve ? { approvals: { tools: setup.approve } } : {}),
      ...(setup.limits ? { limits: setup.limits } : {}),
      ...(setup.context ? { context: setup.context } : {}),
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

/**
 * Chaos seeds 1 to `count`, each with the storage it runs on: the first two on DynamoDB Local, the
 * rest in memory, which is as faithful (the contract suites prove the stores equivalent) and fast.
 */
export function chaosSeeds(count: number): Array<[number, Storage]> {
  return Array.from({ length: count }, (_, index) => [index + 1, index < 2 ? 'dynamodb-local' : 'memory']);
}

/**
 * A `hold` tool whose calls each wait until the test releases their value, recording each start
 * and end: the test sees which calls run at once and decides the order in which they end. Make it
 * in a test: the calls still held when the test ends are released then.
 */
export function heldCalls() {
  const order: string[] = [];
  const releases = new Map<string, Array<() => void>>();
  const tool = defineTool({
    name: 'hold',
    description: 'Waits until the test releases value, then returns it.',
    input: z.object({ value: z.string() }),
    // Longer than any test waits: only the test ends a call.
    timeoutMs: 15 * 60_000,
    handler: async ({ value }) => {
      order.push(`start ${value}`);
      await new Promise<void>((release) => releases.set(value, [...(releases.get(value) ?? []), release]));
      order.push(`end ${value}`);
      return value;
    },
  });
  /** Resolves once `count` calls of each of `values` have started (and wait for their release). */
  const started = (values: string[], count = 1) =>
    readUntil(
      async () => values.every((value) => (releases.get(value)?.length ?? 0) >= count),
      (all) => all,
    );
  /** Lets the waiting calls of `value` end. */
  const release = (value: string) => {
    for (const end of releases.get(value) ?? []) end();
  };
  onTestFinished(() => {
    for (const value of releases.keys()) release(value);
  });
  return { tool, order, started, release };
}

/** A model step that calls the given tools in one batch. */
export function batch(...calls: Array<[string, Record<string, unknown>]>): string {
  return `<execute>${JSON.stringify(calls.map(([name, args]) => ({ name, args })))}</execute>`;
}

/**
 * A turn that runs until something stops it: three sleeps of 60 s at once (the longest a sleep may
 * take, far longer than any test), then an answer.
 */
export const SLEEPING_TURN = [
  batch(
    ...[1, 2, 3].map((n): [string, Record<string, unknown>] => [
      'sleep',
      { ms: 60_000, value: `slept ${n}` },
    ]),
  ),
  'Done.<end>',
];

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

/** A log as two runs of one script must agree on it: without timestamps, expiry times, turn ids and calls' durations. */
export const canonical = (events: readonly StoredEvent[]) =>
  events.map(({ seq, batch: id, position, event }) => {
    const { timestamp: _, ...rest } = event;
    if (rest.type === 'turn_end') rest.payload = { ...rest.payload, turn: 'turn' };
    if (rest.type === 'result') {
      const { durations_ms: __, ...counts } = rest.payload;
      rest.payload = counts;
    }
    if (rest.type === 'approval') {
      const { expires_at: __, ...payload } = rest.payload;
      rest.payload = { ...payload, id: anyTurn(payload.id) };
    }
    return { seq, batch: id && anyTurn(id), position, ...rest };
  });
