import type { EngineEvent } from './run-stats.js';

/** Step Functions' limit on one Standard execution's history. */
export const MAX_HISTORY_EVENTS = 25_000;

/**
 * How many events of an AWS execution history one event of the local engine stands for: a Task
 * state is entered, scheduled, started, succeeded (or failed) and exited; a retry schedules and
 * starts again after its failure; a Map state also starts and succeeds; other states are entered
 * and exited. The local engine reports entering and exiting only, so the rest is counted here.
 */
export function historyEvents(event: EngineEvent, typeOf: (state: string) => unknown): number {
  const type = event.state === undefined ? undefined : typeOf(event.state.name);
  if (event.type === 'StateEntered') return type === 'Task' ? 3 : type === 'Map' ? 2 : 1;
  if (event.type === 'StateExited') return type === 'Task' ? 2 : type === 'Map' ? 2 : 1;
  if (event.type === 'StateRetried') return 3;
  return 1;
}
