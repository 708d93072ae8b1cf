import type { CallOutcome, StreamItem } from '@agentstep/client';
import { consoleConfigSchema } from '@agentstep/console/config';
import { toolOutcomeSchema } from '@agentstep/protocol';
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

/** The smoke agent's tool whose calls wait for approval (infra/smoke/agent.js). */
const APPROVED_TOOL = 'sleep';

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

/** The waiting batch's other calls ended while its first waited for a person: they ran at once. */
async function checkParallelBatch(run: SmokeRun, signal: AbortSignal): Promise<string> {
  const session = waitingSession(run);
  const beside = (seen: Seen) => seen.filter((item): item is CallOutcome => item.type === 'call_outcome');
  const seen = await followUntil(
    run.target.client,
    session,
    {
      what: 'the outcomes of the calls beside the one waiting for approval',
      enough: (items) => approvalRequested(items) && beside(items).length >= 2,
    },
    signal,
  );
  const ended = beside(seen).map(
    ({ tool, position, status }) =>
      `${tool} (call ${position + 1}) ${status === 'success' ? 'succeeded' : 'failed'}`,
  );
  return `while call 1 (${APPROVED_TOOL}) waited for approval, ${ended.join(' and ')}: the batch's calls ran at once, not one after another`;
}

/** The waiting call approved through the API: it runs, the turn ends done, results in call order. */
async function checkApproval(run: SmokeRun, signal: AbortSignal): Promise<string> {
  const { client } = run.target;
  const session = waitingSession(run);
  const waiting = await client.approvals(session);
  const [approval] = waiting;
  if (waiting.length !== 1 || approval?.tool !== APPROVED_TOOL)
    throw new Error(
      `expected one call of ${APPROVED_TOOL} waiting for approval, found ${JSON.stringify(waiting)}`,
    );
  await client.decide(session, approval.id, { decision: 'approve' });
  const seen = await followUntil(client, session, { what: 'its turn ended', enough: ended }, signal);
  const done = doneOf(seen);
  if (done?.status !== 'done') throw new Error(`its turn ended ${done?.status}, not done`);
  const results = lastBatchResults(seen);
  const failed = results.filter(({ status }) => status !== 'success');
  if (results[0]?.tool !== APPROVED_TOOL || results.length < 3 || failed.length > 0)
    throw new Error(`the batch's results are ${JSON.stringify(results)}`);
  return `approved ${approval.id}; the call ran and the turn ended done, the batch's results in call order (${results.map(({ tool }) => tool).join(', ')})`;
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

function ended(seen: Seen): boolean {
  return doneOf(seen) !== undefined;
}

/** The outcomes of the last batch the stream logged, in its `result`'s order. */
function lastBatchResults(seen: readonly StreamItem[]) {
  const result = seen.findLast((item) => 'seq' in item && item.event.type === 'result');
  if (result === undefined || !('seq' in result) || result.event.type !== 'result')
    throw new Error('its stream logged no batch result');
  return z.array(toolOutcomeSchema).parse(JSON.parse(result.event.content));
}
