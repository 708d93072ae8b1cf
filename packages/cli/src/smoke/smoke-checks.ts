import type { CallOutcome, StreamItem } from '@agentstep/client';
import { consoleConfigSchema } from '@agentstep/console/config';
import { type ToolOutcome, toolOutcomeSchema } from '@agentstep/protocol';
import * as z from 'zod';
import { approvalRequested, doneOf, followUntil, type Seen, seqsOf } from './follow-until.js';
import { SmokeSkip, type SmokeTarget } from './smoke-target.js';

/** What the checks share while they run: the target, the sessions they started, the first turn. */
export interface SmokeRun {
  readonly target: SmokeTarget;
  /** Every session a check started, so the run can leave none running. */
  readonly sessions: string[];
  /** The session of the `turn` check, its call waiting for approval once that check passed. */
  waiting?: string;
}

/** One check: its name, and what it found (a line's detail) or why the target cannot run it. */
export interface SmokeCheck {
  readonly name: string;
  /** The check whose session this one goes on with: it is not run when that one failed. */
  readonly needs?: string;
  run(run: SmokeRun, signal: AbortSignal): Promise<string | SmokeSkip>;
}

/**
 * The checks, in order: a turn through the API with its stream dropped and resumed, the batch whose
 * calls run at once, the approval that lets the waiting call run, a cancel, a trigger, the console.
 */
export const SMOKE_CHECKS: readonly SmokeCheck[] = [
  { name: 'turn', run: checkTurn },
  { name: 'parallel batch', needs: 'turn', run: checkParallelBatch },
  { name: 'approval', needs: 'turn', run: checkApproval },
  { name: 'cancel', run: checkCancel },
  { name: 'trigger', run: checkTrigger },
  { name: 'console', run: checkConsole },
];

/** POST /sessions, its stream dropped after two events and resumed after the last seq it gave. */
async function checkTurn(run: SmokeRun, signal: AbortSignal): Promise<string> {
  const { client } = run.target;
  const { session, turn } = await client.start({ message: 'Smoke test: a turn through the API.' });
  run.sessions.push(session);
  const enoughToDrop = { what: 'two of its events', enough: (seen: Seen) => seqsOf(seen).length >= 2 };
  const before = seqsOf(await followUntil(client, session, enoughToDrop, signal));
  const droppedAt = Math.max(...before);
  const resumed = await followUntil(
    client,
    session,
    { after: droppedAt, what: 'a call waiting for approval', enough: approvalRequested },
    signal,
  );
  const streamed = [...before, ...seqsOf(resumed)];
  const last = Math.max(...streamed);
  const { events } = await client.events(session, { limit: 1000 });
  const logged = events.map(({ seq }) => seq).filter((seq) => seq <= last);
  if (streamed.join() !== logged.join())
    throw new Error(`its stream gave seqs ${streamed.join(', ')} where the log holds ${logged.join(', ')}`);
  run.waiting = session;
  return `POST /sessions started turn ${turn} (session ${session}); its stream dropped after seq ${droppedAt} and resumed after it: ${streamed.length} events up to a call waiting for approval, none lost or repeated`;
}

/** The waiting batch's other calls succeed while its first waits for a person: none waited for it. */
async function checkParallelBatch(run: SmokeRun, signal: AbortSignal): Promise<string> {
  const session = waitingSession(run);
  const beside = (seen: Seen) => seen.filter((item): item is CallOutcome => item.type === 'call_outcome');
  const everyCallWaits = (items: Seen) => {
    const { calls, waiting } = openBatch(items);
    return calls > 0 && waiting === calls;
  };
  const seen = await followUntil(
    run.target.client,
    session,
    {
      what: 'the outcomes of the calls beside the one waiting for approval',
      enough: (items) => (approvalRequested(items) && beside(items).length >= 2) || everyCallWaits(items),
    },
    signal,
  );
  if (everyCallWaits(seen))
    throw new Error('every call of the batch waits for approval: none ran beside another');
  const outcomes = beside(seen);
  const failed = outcomes.filter(({ status }) => status !== 'success');
  if (failed.length > 0) throw new Error(`calls beside the waiting one failed: ${JSON.stringify(failed)}`);
  const ended = outcomes.map(({ tool, position }) => `${tool} (call ${position + 1})`).join(' and ');
  return `${ended} succeeded while call ${waitingPosition(seen) + 1} waited for approval: the batch's calls did not wait for one another`;
}

/** The waiting call approved through the API: it runs, the turn ends done, results in call order. */
async function checkApproval(run: SmokeRun, signal: AbortSignal): Promise<string> {
  const { client } = run.target;
  const session = waitingSession(run);
  const waiting = await client.approvals(session);
  const [approval] = waiting;
  if (waiting.length !== 1 || approval === undefined)
    throw new Error(`expected one call waiting for approval, found ${JSON.stringify(waiting)}`);
  await client.decide(session, approval.id, { decision: 'approve' });
  const seen = await followUntil(client, session, { what: 'its turn ended', enough: ended }, signal);
  const done = doneOf(seen);
  if (done?.status !== 'done') throw new Error(`its turn ended ${done?.status}, not done`);
  const { calls, results } = lastBatch(seen);
  const inOrder = results.map(({ tool }) => tool).join() === calls.join();
  if (!inOrder || results[approval.position]?.status !== 'success')
    throw new Error(`the batch of ${calls.join(', ')} has results ${JSON.stringify(results)}`);
  return `approved ${approval.tool} (call ${approval.position + 1}); it ran and the turn ended done, the batch's results in call order (${calls.join(', ')})`;
}

/** A second turn, waiting for approval, cancelled through the API: it ends cancelled, nothing waits. */
async function checkCancel(run: SmokeRun, signal: AbortSignal): Promise<string> {
  const { client } = run.target;
  const { session, turn } = await client.start({ message: 'Smoke test: a turn to cancel.' });
  run.sessions.push(session);
  await followUntil(
    client,
    session,
    { what: 'a call waiting for approval', enough: approvalRequested },
    signal,
  );
  await client.cancel(session);
  const done = doneOf(await followUntil(client, session, { what: 'its turn ended', enough: ended }, signal));
  if (done?.status !== 'cancelled') throw new Error(`turn ${turn} ended ${done?.status}, not cancelled`);
  const left = await client.approvals(session);
  if (left.length > 0) throw new Error(`calls still wait for approval: ${JSON.stringify(left)}`);
  return `turn ${turn}, waiting for approval, ended cancelled; no call of it waits`;
}

/** A turn started as a trigger starts one: it ends, and not failed. */
async function checkTrigger(run: SmokeRun, signal: AbortSignal): Promise<string | SmokeSkip> {
  const result = await run.target.trigger('Smoke test: a turn a trigger started.', signal);
  if (result instanceof SmokeSkip) return result;
  if (result.status !== 'done' && result.status !== 'limit')
    throw new Error(`turn ${result.turn} ended ${result.status}: ${result.message}`);
  return `an event started turn ${result.turn} (session ${result.session}), which ended ${result.status}: ${result.message}`;
}

/** The console's config.json, as the console reads it. */
async function checkConsole(run: SmokeRun, signal: AbortSignal): Promise<string | SmokeSkip> {
  const config = await run.target.consoleConfig(signal);
  if (config instanceof SmokeSkip) return config;
  const parsed = consoleConfigSchema.safeParse(config);
  if (!parsed.success) throw new Error(`its config.json is not the console's: ${JSON.stringify(config)}`);
  return `config.json signs in with ${parsed.data.signIn.kind}`;
}

function waitingSession(run: SmokeRun): string {
  if (run.waiting === undefined) throw new Error('the turn check left no call waiting');
  return run.waiting;
}

/** The batch position of the call whose approval the stream saw requested last. */
function waitingPosition(seen: Seen): number {
  const requested = seen.findLast(
    (item) => 'seq' in item && item.event.type === 'approval' && item.event.payload.status === 'requested',
  );
  return requested && 'seq' in requested && requested.event.type === 'approval'
    ? requested.event.payload.index
    : 0;
}

/** The calls of the stream's open batch (logged since its last result), and how many wait for approval. */
function openBatch(seen: Seen): { calls: number; waiting: number } {
  const logged = seen.flatMap((item) => ('seq' in item ? [item.event] : []));
  const open = logged.slice(logged.findLastIndex((event) => event.type === 'result') + 1);
  const calls = open.filter((event) => event.type === 'call').length;
  const waiting = open.filter((event) => event.type === 'approval' && event.payload.status === 'requested');
  return { calls, waiting: waiting.length };
}

function ended(seen: Seen): boolean {
  return doneOf(seen) !== undefined;
}

/** The tools the stream's last batch called, in call order, and its `result`'s outcomes. */
function lastBatch(seen: readonly StreamItem[]): { calls: string[]; results: ToolOutcome[] } {
  const logged = seen.flatMap((item) => ('seq' in item ? [item.event] : []));
  const at = logged.findLastIndex((event) => event.type === 'result');
  const result = logged[at];
  if (result?.type !== 'result') throw new Error('its stream logged no batch result');
  const { seq } = result;
  const calls: string[] = [];
  for (const event of logged.slice(0, at).reverse()) {
    if (event.type !== 'call') {
      if (calls.length > 0) break;
      continue;
    }
    calls.unshift(String(JSON.parse(event.content).name));
  }
  try {
    return { calls, results: z.array(toolOutcomeSchema).parse(JSON.parse(result.content)) };
  } catch (error) {
    throw new Error(`the result at seq ${seq} is not a batch's outcomes`, {
      cause: error,
    });
  }
}
