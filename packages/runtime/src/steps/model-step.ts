import {
  BATCH_TOOL_NAME,
  type BuildMessagesOptions,
  buildMessages,
  type CallItem,
  type LoopState,
  type ModelStepOutput,
  renderSystemPrompt,
  type StoredEvent,
  type ToolDescription,
} from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import type { StepStream } from '../session/step-stream.js';
import { batchId } from './batch-id.js';
import { hasBatchFailure } from './has-batch-failure.js';
import { calledTool } from './read-calls.js';
import { budgetLimit, recordSpend, type SpendDeps } from './record-spend.js';
import { runModel, STOP_SEQUENCES } from './run-model.js';
import { stepRecord } from './step-record.js';

const DEFAULT_MAX_CONCURRENCY = 10;

/** What ModelStep needs. */
export interface ModelStepDeps extends SpendDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  /** Where the model's output goes as it streams, for clients following the session. @default none */
  stream?: StepStream;
  /** The tools the model may call, as the system prompt lists them. */
  tools: readonly ToolDescription[];
  /** The Lambda function that runs each call, by tool name (unknown names included). */
  targetOf(tool: string): string;
  /** Names of tools that run alone (B3). */
  sequentialTools?: ReadonlySet<string>;
  /** Calls of one batch that may run at once. @default 10 */
  maxConcurrency?: number;
  instructions?: string;
  context?: BuildMessagesOptions;
}

/**
 * One model step: rebuilds the context from the log, streams the model through the parser and
 * appends the step's events (C3: a re-delivered step finds its events and calls no model).
 */
export async function modelStep(state: LoopState, deps: ModelStepDeps): Promise<ModelStepOutput> {
  const batch = batchId(state.turn, state.turnSteps + 1);
  const log = await deps.log.read(state.session);
  let stepEvents = log.filter((stored) => stored.batch === batch && stored.event.type !== 'result');
  if (stepEvents.length === 0) {
    const limit = await budgetLimit(state, deps);
    if (limit !== undefined)
      return { ...state, batch, calls: [], count: 0, concurrency: 1, next: 'limit', limit };
    stepEvents = await takeStep(state, batch, log, deps);
  }
  const calls = stepEvents.filter((stored) => stored.event.type === 'call');
  const batchFailed = calls.length === 0 && (await hasBatchFailure(state.session, batch, deps.outcomes));
  return {
    ...state,
    batch,
    calls: calls.map((stored) => callItem(stored, deps)),
    count: batchFailed ? 1 : calls.length,
    concurrency: runsAlone(state, calls, deps) ? 1 : (deps.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY),
    next: calls.length > 0 ? 'tools' : batchFailed ? 'results' : 'finish',
  };
}

/** B3: the session asked for one call at a time, or a call's tool runs alone. */
function runsAlone(state: LoopState, calls: StoredEvent[], deps: ModelStepDeps): boolean {
  return (
    state.toolExecution === 'sequential' ||
    calls.some((stored) => deps.sequentialTools?.has(calledTool(stored)) === true)
  );
}

async function takeStep(
  state: LoopState,
  batch: string,
  log: StoredEvent[],
  deps: ModelStepDeps,
): Promise<StoredEvent[]> {
  const startedAt = deps.clock.now();
  const { events: parsed, usage } = await runModel(
    deps.model,
    {
      system: renderSystemPrompt({
        tools: deps.tools,
        ...(deps.instructions ? { instructions: deps.instructions } : {}),
      }),
      messages: buildMessages(log, deps.context),
      step: state.step,
      stopSequences: STOP_SEQUENCES,
    },
    (text) => deps.stream?.write({ session: state.session, step: state.step, text }),
  );
  const endedAt = deps.clock.now();
  await recordSpend({ session: state.session, batch, startedAt, endedAt, usage }, deps);
  const record = stepRecord(parsed, batch, endedAt / 1000);
  if (record.batchFailure !== undefined) {
    const failure = { tool: BATCH_TOOL_NAME, status: 'failure' as const, content: record.batchFailure };
    await deps.outcomes.put({ session: state.session, batch, position: 0 }, failure);
  }
  const { firstSeq } = await deps.log.append({
    session: state.session,
    turn: state.turn,
    key: `model:${batch}`,
    events: record.events,
    expectedSeq: (log.at(-1)?.seq ?? 0) + 1,
  });
  return record.events.map((event, index) => ({ session: state.session, seq: firstSeq + index, ...event }));
}

function callItem(stored: StoredEvent, deps: ModelStepDeps): CallItem {
  return { position: stored.position ?? 0, seq: stored.seq, target: deps.targetOf(calledTool(stored)) };
}
