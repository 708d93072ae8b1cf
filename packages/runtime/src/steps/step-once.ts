import { type LoopState, renderSystemPrompt, type StoredEvent } from '@agentstep/protocol';
import { approvalRequests, approvalTimeoutMs } from '../approvals/approval-rules.js';
import {
  contextAfterRefusal,
  type StepContext,
  type StepContextInput,
  stepContext,
} from '../context/step-context.js';
import {
  type Appended,
  DEFAULT_LEASE_MS,
  isCancelled,
  type LogSnapshot,
  type NewEvent,
} from '../event-log/event-log.js';
import type { Model } from '../model/model.js';
import { ContextTooLongError } from '../model/model-errors.js';
import { reserveStep, type StepUse, settleStep } from '../tenants/step-ceiling.js';
import { sessionSuspended } from '../tenants/suspension-of.js';
import { modelStepKey } from '../usage/model-step-key.js';
import { stepSpend } from '../usage/step-spend.js';
import { batchId } from './batch-id.js';
import { budgetLimit } from './budget-limit.js';
import type { ModelStepDeps } from './model-step-deps.js';
import { type ModelRun, runModel, STOP_SEQUENCES } from './run-model.js';
import { runawayGuard } from './runaway-guard.js';
import { type StepNote, stepNoteSchema } from './step-note.js';
import { stepRecord } from './step-record.js';
import { turnCarry } from './turn-carry.js';
import { turnModel } from './turn-model.js';
import { type TurnUser, turnUser } from './turn-user.js';

/**
 * A model step as the log holds it: its events, why its body had no positions if it had none, and
 * whether the model returned nothing at all.
 */
export interface TakenStep {
  events: StoredEvent[];
  batchFailure?: string;
  empty?: true;
  /** Whether the turn had been asked to stop when the step was logged; unknown for a step logged before. */
  cancelRequested?: boolean;
}

/** A step not taken because the turn ran away or the session has spent a budget: which, as a sentence. */
export interface SpentStep {
  limit: string;
}

/** A step not taken because the turn was asked to stop. */
export interface CancelledStep {
  cancelled: true;
}

/**
 * Model step `batch` taken exactly once: as logged when a delivery already took it (its events
 * and note, however few), else taken now unless the turn was asked to stop, ran away (decision 0030)
 * or a budget is spent. `snapshot` is the session's log (from seq 1, or from the context's start)
 * and head as the caller read them: the step's marker is read only when the head's mark leaves open
 * that the step was logged already.
 */
export async function stepOnce(
  state: LoopState,
  batch: string,
  snapshot: LogSnapshot,
  deps: ModelStepDeps,
): Promise<TakenStep | SpentStep | CancelledStep> {
  const log = snapshot.events;
  if (mayBeLogged(state, snapshot.mark)) {
    const appended = await deps.log.appended(state.session, modelStepKey(batch));
    if (appended !== undefined) return loggedStep(state.session, appended, log, deps);
  }
  // A suspended tenant's turn stops as a cancelled one (decision 0041).
  if (isCancelled(snapshot.holder, state.turn) || (await suspended(state.session, deps)))
    return { cancelled: true };
  const { start } = snapshot;
  const limit =
    runawayGuard(state, log, deps.turnTallies, start) ?? (await budgetLimit(state, log, deps, start));
  if (limit !== undefined) return { limit };
  return takeStep(state, batch, snapshot, deps);
}

/** Whether the session's tenant is suspended, when the step keeps tenants within their controls. */
function suspended(session: string, deps: ModelStepDeps): Promise<boolean> {
  return deps.ceilings === undefined
    ? Promise.resolve(false)
    : sessionSuspended(session, deps.ceilings.tenantControls);
}

/**
 * Whether the turn's next step may be logged already, as the head's mark tells: not when the mark
 * is the turn's previous step, or, before its first, the turn's own message (`batchId(turn, 0)`,
 * which its user append sets). Anything else (a redelivery, another turn's steps after a takeover,
 * a head from before marks) leaves it open, and the step's marker decides.
 */
function mayBeLogged(state: LoopState, mark: string | undefined): boolean {
  return mark !== batchId(state.turn, state.turnSteps);
}

/**
 * Runs the model on the context the log gives (compacted first when it would overflow the model's
 * window, decision 0035), then records the step in one append: its events and its note.
 */
async function takeStep(
  state: LoopState,
  batch: string,
  { events: before, start, mark, markNote }: LogSnapshot,
  deps: ModelStepDeps,
): Promise<TakenStep | SpentStep> {
  const { session, turn } = state;
  const user = turnUser(before, turn, start);
  const { model, profile } = turnModel(session, user, deps);
  const system = renderSystemPrompt({ tools: deps.tools, ...turnInstructions(user, deps) });
  const carry = () =>
    turnCarry(turn, before, start, { now: deps.clock.now(), session, turnTallies: deps.turnTallies });
  const marked = { mark, ...(markNote === undefined ? {} : { markNote }) };
  const input = { state, batch, log: before, system, model, carry, marked };
  const paid = await paidRun(input, await stepContext(input, deps), deps);
  if ('limit' in paid) return paid;
  const { context, run, startedAt, settle } = paid;
  const { events: parsed, usage, usageUnknown, firstInputTokens } = run;
  const { log } = context;
  const endedAt = deps.clock.now();
  const record = stepRecord(parsed, batch, endedAt / 1000);
  const { batchFailure } = record;
  const empty = parsed.every((event) => event.type === 'end') ? { empty: true as const } : {};
  const requests = deps.approvals ? approvalRequests(record.events, deps.approvals, endedAt) : [];
  const events = [...record.events, ...requests];
  const note: StepNote = {
    ...stepSpend({ startedAt, endedAt, usage, usageUnknown }, { ...deps, model }),
    context: {
      estimatedTokens: context.estimatedTokens,
      ...(firstInputTokens === undefined ? {} : { inputTokens: firstInputTokens }),
    },
    ...(profile === undefined ? {} : { profile }),
    ...(batchFailure === undefined ? {} : { batchFailure }),
    ...empty,
  };
  const key = modelStepKey(batch);
  const expectedSeq = (log.at(-1)?.seq ?? 0) + 1;
  const appended = await deps.log.append({
    session,
    turn,
    key,
    events,
    note,
    expectedSeq,
    mark: batch,
    reportCancel: true,
    ...holdWhileWaiting(requests, endedAt, deps),
  });
  await settle({ costUsd: note.costUsd, tokens: usage.inputTokens + usage.outputTokens });
  // A duplicate delivery took the step first: the step is what it logged (C3).
  if (appended.replayed) {
    const first = await deps.log.appended(session, key);
    return loggedStep(session, { ...appended, ...first }, log, deps);
  }
  return {
    events: events.map((event, index) => ({ session, seq: appended.firstSeq + index, ...event })),
    ...(batchFailure === undefined ? {} : { batchFailure }),
    ...empty,
    ...(appended.cancelRequested === undefined ? {} : { cancelRequested: appended.cancelRequested }),
  };
}

/** A model run, and how to settle what its tenant's ceiling reserved for it once its cost is known. */
type PaidRun = Awaited<ReturnType<typeof runOnContext>> & {
  settle(used: StepUse): Promise<void>;
};

/**
 * The model run on `context` within the tenant's ceiling (decision 0043): its cost reserved first
 * (its input as estimated, a set amount of output), given back if the run fails; `{ limit }`, the
 * turn's end, when the reservation does not fit.
 */
async function paidRun(
  input: StepContextInput,
  context: StepContext,
  deps: ModelStepDeps,
): Promise<PaidRun | SpentStep> {
  const { ceilings } = deps;
  const reservation =
    ceilings === undefined
      ? undefined
      : await reserveStep(
          input.state.session,
          { model: input.model, inputTokens: Math.ceil(context.estimatedTokens * context.ratio) },
          { ...ceilings, clock: deps.clock, ...(deps.prices ? { prices: deps.prices } : {}) },
        );
  if (reservation !== undefined && 'limit' in reservation) return reservation;
  const settle = async (used: StepUse) => {
    if (ceilings !== undefined) await settleStep(reservation, used, ceilings);
  };
  try {
    return { ...(await runOnContext(input, context, deps)), settle };
  } catch (error) {
    // The model was not paid for (or not known to be): the reservation is given back.
    await settle({ costUsd: 0, tokens: 0 });
    throw error;
  }
}

/**
 * The model run on `context` (and when its request started); when the provider refuses it as
 * longer than the window, the context compacted once more and the model run once more, on which a
 * refusal ends the turn.
 */
async function runOnContext(
  input: StepContextInput,
  context: StepContext,
  deps: ModelStepDeps,
): Promise<{ context: StepContext; run: ModelRun; startedAt: number }> {
  try {
    const startedAt = deps.clock.now();
    return { context, run: await runStep(input, context, deps), startedAt };
  } catch (error) {
    if (!(error instanceof ContextTooLongError)) throw error;
    const compacted = await contextAfterRefusal(input, context, error, deps);
    const startedAt = deps.clock.now();
    return { context: compacted, run: await runStep(input, compacted, deps), startedAt };
  }
}

function runStep(
  { state, system, model }: StepContextInput & { model: Model },
  context: StepContext,
  deps: ModelStepDeps,
): Promise<ModelRun> {
  const request = {
    session: state.session,
    system,
    messages: context.messages,
    step: state.step,
    turnStep: state.turnSteps,
    stopSequences: STOP_SEQUENCES,
  };
  return runModel(model, request, (text) =>
    deps.stream?.write({ session: state.session, step: state.step, text }),
  );
}

/**
 * The hold on the session while a batch's calls wait for people: long enough for each to wait its
 * full time one after another (a sequential batch), then a lease. The batch's result ends it.
 */
function holdWhileWaiting(requests: readonly NewEvent[], now: number, deps: ModelStepDeps) {
  if (requests.length === 0 || deps.approvals === undefined) return {};
  return { holdUntil: now + requests.length * approvalTimeoutMs(deps.approvals) + DEFAULT_LEASE_MS };
}

/** The step a delivery appended: its events (read again if `log` was read before they landed). */
async function loggedStep(
  session: string,
  { firstSeq, count, note }: Appended,
  log: readonly StoredEvent[],
  deps: ModelStepDeps,
): Promise<TakenStep> {
  const inStep = (stored: StoredEvent) => stored.seq >= firstSeq && stored.seq < firstSeq + count;
  let events = log.filter(inStep);
  if (events.length < count)
    events = (await deps.log.read(session, { afterSeq: firstSeq - 1 })).filter(inStep);
  const { batchFailure, empty }: Partial<StepNote> = note === undefined ? {} : stepNoteSchema.parse(note);
  return { events, ...(batchFailure === undefined ? {} : { batchFailure }), ...(empty ? { empty } : {}) };
}

/** The deployment's instructions, then those the turn's user message brought (a persona). */
function turnInstructions(user: TurnUser | undefined, deps: ModelStepDeps): { instructions?: string } {
  const instructions = [deps.instructions, user?.instructions].filter(
    (text) => text !== undefined && text !== '',
  );
  return instructions.length === 0 ? {} : { instructions: instructions.join('\n\n') };
}
