import {
  BATCH_TOOL_NAME,
  type CallItem,
  INLINE_CALL_BYTES,
  INLINE_CALLS_BYTES,
  type LoopState,
  type ModelStepOutput,
  NEXT,
  type StoredEvent,
} from '@agentstep/protocol';
import { EmptyModelOutputError } from '../errors.js';
import type { LogSnapshot } from '../event-log/event-log.js';
import { withTurnMcpTools } from '../mcp/with-turn-mcp-tools.js';
import { modelStepKey } from '../usage/model-step-key.js';
import { batchId } from './batch-id.js';
import { cancelRequested } from './cancel-requested.js';
import type { ModelStepDeps } from './model-step-deps.js';
import { calledTool } from './read-calls.js';
import { stateBytes } from './state-bytes.js';
import { stepNoteSchema } from './step-note.js';
import { type CancelledStep, type SpentStep, stepOnce, type TakenStep } from './step-once.js';

const DEFAULT_MAX_CONCURRENCY = 10;

/** A model step of the turn: its batch id, and the step as taken or as the log holds it. */
interface TurnStep {
  batch: string;
  step: TakenStep | SpentStep | CancelledStep;
}

/**
 * One model step: rebuilds the context from the log, streams the model through the parser and
 * appends the step's events with its note (usage, batch failure). Exactly once (decision 0013): a
 * re-delivered step finds what the first delivery logged and calls no model, whatever it produced.
 * A turn asked to stop takes no step, and runs no batch: `next: "cancelled"` ends it. A step in
 * which the model returned nothing hands on `next: "model"`: the next step asks again (A12).
 */
export async function modelStep(
  state: LoopState,
  agentDeps: ModelStepDeps,
  known?: LogSnapshot,
): Promise<ModelStepOutput> {
  const deps = await withTurnMcpTools(state, agentDeps);
  const taken = await turnStep(state, deps, known);
  return isEmpty(taken.step) ? askAgain(state, taken.batch, deps) : handOn(state, taken, deps);
}

/**
 * After step `batch` in which the model returned nothing: the turn's next step asks it again, on
 * the same context, as its log holds nothing new. When `batch` was that second asking, the turn
 * fails with EmptyModelOutput; when the turn has no step left, it ends at its step limit.
 */
async function askAgain(state: LoopState, batch: string, deps: ModelStepDeps): Promise<ModelStepOutput> {
  const previous = batchId(state.turn, state.turnSteps);
  if (state.turnSteps > 0 && (await wasEmpty(state.session, previous, deps)))
    throw new EmptyModelOutputError(state.turn, [previous, batch]);
  const turnSteps = state.turnSteps + 1;
  if (turnSteps >= state.maxSteps) {
    const limit = `The turn stopped after ${state.maxSteps} model steps (its step limit): the model returned nothing in the last one, and no step was left to ask it again. Send another message to continue, or raise the limit.`;
    return stopped(state, batch, { next: NEXT.limit, limit });
  }
  const next = { step: state.step + 1, turnSteps, executionSteps: state.executionSteps + 1 };
  return { ...state, ...next, batch, calls: [], count: 0, concurrency: 1, next: NEXT.model };
}

/** Whether the model returned nothing in step `batch`, as the step's note says. */
async function wasEmpty(session: string, batch: string, deps: ModelStepDeps): Promise<boolean> {
  const note = (await deps.log.appended(session, modelStepKey(batch)))?.note;
  return note !== undefined && stepNoteSchema.parse(note).empty === true;
}

/**
 * The turn's next model step, taken exactly once, on the log and head as `known` (the caller's own
 * append just left them) or as read now.
 */
async function turnStep(state: LoopState, deps: ModelStepDeps, known?: LogSnapshot): Promise<TurnStep> {
  const batch = batchId(state.turn, state.turnSteps + 1);
  // From the context's start: a process that never read the session reads no event a step needs not.
  const snapshot = known ?? (await deps.log.snapshot(state.session, { fromContext: true }));
  const logged = snapshot.events.filter((stored) => stored.batch === batch && stored.event.type !== 'result');
  // A step with calls had no batch failure; of any other step, only its note tells.
  const step = logged.some(isCall) ? { events: logged } : await stepOnce(state, batch, snapshot, deps);
  return { batch, step };
}

/** Where the loop goes after a step: its calls, its batch failure, or the turn's end. */
async function handOn(
  state: LoopState,
  { batch, step }: TurnStep,
  deps: ModelStepDeps,
): Promise<ModelStepOutput> {
  if ('limit' in step) return stopped(state, batch, { next: NEXT.limit, limit: step.limit });
  if ('cancelled' in step) return stopped(state, batch, { next: NEXT.cancelled });
  const batchFailed = step.batchFailure !== undefined;
  // After the append, so a crash in between is repaired by the next delivery (first put wins).
  if (step.batchFailure !== undefined) {
    const failure = { tool: BATCH_TOOL_NAME, status: 'failure' as const, content: step.batchFailure };
    await deps.outcomes.put({ session: state.session, batch, position: 0 }, failure);
  }
  const calls = step.events.filter(isCall);
  // Asked again before the batch runs: a cancel may have come while the model streamed (the
  // step's own append tells, else the head is read).
  if (
    calls.length > 0 &&
    (step.cancelRequested ?? (await cancelRequested(deps.log, state.session, state.turn)))
  )
    return stopped(state, batch, { next: NEXT.cancelled });
  return {
    ...state,
    batch,
    calls: callItems(calls, approvals(step.events), deps),
    count: batchFailed ? 1 : calls.length,
    concurrency: runsAlone(state, calls, deps) ? 1 : (deps.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY),
    next: calls.length > 0 ? NEXT.tools : batchFailed ? NEXT.results : NEXT.finish,
  };
}

/** A step in which the model returned nothing: no thought, prose or `<execute>` (its note says so). */
function isEmpty(step: TurnStep['step']): boolean {
  return 'events' in step && step.empty === true;
}

/** The output of a step that ends the turn with nothing to run: a spent budget, or a cancel. */
function stopped(
  state: LoopState,
  batch: string,
  end: { next: typeof NEXT.limit; limit: string } | { next: typeof NEXT.cancelled },
): ModelStepOutput {
  return { ...state, batch, calls: [], count: 0, concurrency: 1, ...end };
}

function isCall(stored: StoredEvent): boolean {
  return stored.event.type === 'call';
}

/** B3: the session asked for one call at a time, or a call's tool runs alone. */
function runsAlone(state: LoopState, calls: StoredEvent[], deps: ModelStepDeps): boolean {
  return (
    state.toolExecution === 'sequential' ||
    calls.some((stored) => deps.sequentialTools?.has(calledTool(stored)) === true)
  );
}

/**
 * The map items of a batch's calls: each names its tool's function and the approval it waits on,
 * and carries the call itself while the batch's calls stay small (InvokeTool then reads no event).
 */
function callItems(
  calls: readonly StoredEvent[],
  waiting: ReadonlyMap<number, string>,
  deps: ModelStepDeps,
): CallItem[] {
  let inlineBytes = 0;
  return calls.map((stored) => {
    const position = stored.position ?? 0;
    const { content } = stored.event;
    // As the state holds it: a JSON string, in UTF-8 (Step Functions counts bytes). A longer text
    // is longer still as JSON: it is not copied to be measured.
    const bytes =
      content === undefined || content.length > INLINE_CALL_BYTES
        ? Number.POSITIVE_INFINITY
        : stateBytes(content);
    const inline = bytes <= INLINE_CALL_BYTES && inlineBytes + bytes <= INLINE_CALLS_BYTES;
    if (inline) inlineBytes += bytes;
    return {
      position,
      seq: stored.seq,
      target: deps.targetOf(calledTool(stored)),
      approval: waiting.get(position) ?? null,
      call: inline ? content : null,
    };
  });
}

/** The approvals a step requested, by the position of the call that waits on each. */
function approvals(events: readonly StoredEvent[]): Map<number, string> {
  const waiting = new Map<number, string>();
  for (const { event } of events) {
    if (event.type === 'approval' && event.payload.status === 'requested')
      waiting.set(event.payload.index, event.payload.id);
  }
  return waiting;
}
