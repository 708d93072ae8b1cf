import { AgentStepApiError } from '@agentstep/client';
import type { CliIo } from '../io/cli-io.js';
import { doneOf, followUntil } from './follow-until.js';
import { SMOKE_CHECKS, type SmokeCheck, type SmokeRun } from './smoke-checks.js';
import { SmokeSkip, type SmokeTarget } from './smoke-target.js';

/** How a check came out, as its line says it. */
type Verdict = 'ok' | 'FAIL' | 'skip';

/** How long the run may take to leave no turn running, once the checks are over or stopped. */
const CLEANUP_MS = 60_000;

/**
 * Runs every smoke check against `target`, one after another, each within `timeoutMs`, printing one
 * line per check (`ok`, `FAIL` or `skip`, its name, what it found) and a summary; then cancels every
 * turn it started that still runs and waits for its end. Ctrl-C stops the check under way and goes
 * straight to that. Resolves with the exit code: 0 when none failed, else 1.
 */
export async function runSmoke(target: SmokeTarget, timeoutMs: number, io: CliIo): Promise<number> {
  const run: SmokeRun = { target, sessions: [] };
  const verdicts = new Map<string, Verdict>();
  const stopped = new AbortController();
  const stopListening = io.onStopRequest(() => stopped.abort(new Error('stopped (Ctrl-C)')));
  const line = (verdict: Verdict, name: string, detail: string) => {
    verdicts.set(name, verdict);
    io.stdout(`${verdict.padEnd(6)}${name.padEnd(16)}${detail}\n`);
  };
  try {
    for (const check of SMOKE_CHECKS) {
      if (stopped.signal.aborted) break;
      line(...(await verdictOf(check, run, verdicts, { timeoutMs, stopped: stopped.signal })));
    }
  } finally {
    stopListening();
    const left = await stopWhatRuns(run);
    if (left.length > 0) line('FAIL', 'cleanup', `left running: ${left.join('; ')}`);
  }
  const count = (wanted: Verdict) => [...verdicts.values()].filter((verdict) => verdict === wanted).length;
  const summary = `${count('ok')} passed, ${count('FAIL')} failed, ${count('skip')} skipped`;
  io.stdout(`smoke: ${summary}${stopped.signal.aborted ? ', stopped' : ''} (${target.name})\n`);
  return count('FAIL') === 0 && !stopped.signal.aborted ? 0 : 1;
}

async function verdictOf(
  check: SmokeCheck,
  run: SmokeRun,
  verdicts: ReadonlyMap<string, Verdict>,
  { timeoutMs, stopped }: { timeoutMs: number; stopped: AbortSignal },
): Promise<[Verdict, string, string]> {
  if (check.needs !== undefined && verdicts.get(check.needs) !== 'ok')
    return ['FAIL', check.name, `not run: it goes on with the ${check.needs} check's session`];
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stopped]);
  try {
    const found = await Promise.race([check.run(run, signal), aborted(signal)]);
    return found instanceof SmokeSkip ? ['skip', check.name, found.reason] : ['ok', check.name, found];
  } catch (error) {
    if (stopped.aborted) return ['FAIL', check.name, 'stopped (Ctrl-C)'];
    const timedOut = signal.aborted && error === signal.reason;
    return [
      'FAIL',
      check.name,
      timedOut ? `no answer within ${timeoutMs / 1000} s (--timeout)` : reasonOf(error),
    ];
  }
}

/** Rejects once `signal` aborts: a check's requests that take no signal still end it in time. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
}

/**
 * Cancels each turn the checks started that still runs, and follows it to its end; says which
 * sessions it could not bring to rest (none, normally).
 */
async function stopWhatRuns(run: SmokeRun): Promise<string[]> {
  const { client } = run.target;
  const signal = AbortSignal.timeout(CLEANUP_MS);
  const left: string[] = [];
  for (const session of run.sessions) {
    try {
      if ((await client.get(session)).status === 'idle') continue;
      await client.cancel(session).catch((error: unknown) => {
        // It ended between the two requests: nothing to stop.
        if (!(error instanceof AgentStepApiError && error.code === 'NoTurnRunning')) throw error;
      });
      await followUntil(
        client,
        session,
        { what: 'its end', enough: (items) => doneOf(items) !== undefined },
        signal,
      );
    } catch (error) {
      left.push(`session ${session}: ${reasonOf(error)}`);
    }
  }
  return left;
}

/** An error's message and its causes' (undici's "fetch failed" says why only in its cause). */
function reasonOf(error: unknown): string {
  const messages: string[] = [];
  for (let at: unknown = error; at != null && messages.length < 4; at = (at as { cause?: unknown }).cause)
    messages.push(at instanceof Error ? at.message : String(at));
  return messages.join(': ');
}
