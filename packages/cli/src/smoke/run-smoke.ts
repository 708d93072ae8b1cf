import type { CliIo } from '../io/cli-io.js';
import { SMOKE_CHECKS, type SmokeCheck, type SmokeRun } from './smoke-checks.js';
import { SmokeSkip, type SmokeTarget } from './smoke-target.js';

/** How a check came out, as its line says it. */
type Verdict = 'ok' | 'FAIL' | 'skip';

/**
 * Runs every smoke check against `target`, one after another, each within `timeoutMs`, printing one
 * line per check (`ok`, `FAIL` or `skip`, its name, what it found) and a summary; then leaves no turn
 * it started running. Resolves with the exit code: 0 when none failed, else 1.
 */
export async function runSmoke(target: SmokeTarget, timeoutMs: number, io: CliIo): Promise<number> {
  const run: SmokeRun = { target, sessions: [] };
  const verdicts = new Map<string, Verdict>();
  try {
    for (const check of SMOKE_CHECKS) {
      const [verdict, detail] = await verdictOf(check, run, verdicts, timeoutMs);
      verdicts.set(check.name, verdict);
      io.stdout(`${verdict.padEnd(6)}${check.name.padEnd(16)}${detail}\n`);
    }
  } finally {
    const left = await stopWhatRuns(run);
    if (left !== undefined) {
      verdicts.set('cleanup', 'FAIL');
      io.stdout(`${'FAIL'.padEnd(6)}${'cleanup'.padEnd(16)}${left}\n`);
    }
  }
  const count = (wanted: Verdict) => [...verdicts.values()].filter((verdict) => verdict === wanted).length;
  io.stdout(
    `smoke: ${count('ok')} passed, ${count('FAIL')} failed, ${count('skip')} skipped (${target.name})\n`,
  );
  return count('FAIL') === 0 ? 0 : 1;
}

async function verdictOf(
  check: SmokeCheck,
  run: SmokeRun,
  verdicts: ReadonlyMap<string, Verdict>,
  timeoutMs: number,
): Promise<[Verdict, string]> {
  if (check.needs !== undefined && verdicts.get(check.needs) !== 'ok')
    return ['FAIL', `not run: it goes on with the ${check.needs} check's session`];
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const found = await Promise.race([check.run(run, signal), aborted(signal)]);
    return found instanceof SmokeSkip ? ['skip', found.reason] : ['ok', found];
  } catch (error) {
    if (signal.aborted) return ['FAIL', `no answer within ${timeoutMs / 1000} s`];
    return ['FAIL', error instanceof Error ? error.message : String(error)];
  }
}

/** Rejects once `signal` aborts: a check's requests that take no signal still end it in time. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
}

/** Cancels each turn the checks started that still runs; says which could not be, if any. */
async function stopWhatRuns(run: SmokeRun): Promise<string | undefined> {
  const problems: string[] = [];
  for (const session of run.sessions) {
    try {
      const { status } = await run.target.client.get(session);
      if (status !== 'idle') await run.target.client.cancel(session);
    } catch (error) {
      problems.push(`session ${session}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems.length === 0 ? undefined : `left running: ${problems.join('; ')}`;
}
