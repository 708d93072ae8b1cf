import { batchBars } from './call-bars.js';
import type { GanttBar } from './gantt-chart.js';
import type { TimelineEntry } from './timeline-entries.js';

/** A whole turn on one time line: each model step, then each call of its batch; seconds from the turn's start. */
export interface TurnBars {
  bars: GanttBar[];
  span: number;
  steps: number;
  calls: number;
}

/** The logged events that end a model step: what it wrote, or the end of its turn. */
const STEP_OUTPUTS = new Set(['think', 'respond', 'turn_end', 'cancelled']);

/**
 * Where a turn spent its time, from its own log: each model step from the turn's message (or the
 * results it answered) to the first thing it wrote, and each batch's calls as {@link batchBars}
 * draws them, placed where the batch started. `entries` are the turn's rows, from its message to
 * its end; `undefined` when they carry no time.
 */
export function turnBars(entries: readonly TimelineEntry[]): TurnBars | undefined {
  const start = firstTimestamp(entries);
  if (start === undefined) return undefined;
  const bars: GanttBar[] = [];
  let steps = 0;
  let calls = 0;
  let stepStart: number | undefined = start;
  let end = start;
  const closeStep = (at: number) => {
    end = Math.max(end, at);
    if (stepStart === undefined) return;
    steps += 1;
    bars.push({
      kind: 'step',
      name: `model step ${steps}`,
      run: { from: stepStart - start, to: at - start },
    });
    stepStart = undefined;
  };
  for (const entry of entries) {
    if (entry.kind === 'batch') {
      const batchStart = entry.calls[0]?.timestamp ?? start;
      closeStep(batchStart);
      calls += entry.calls.length;
      bars.push(...shifted(batchBars(entry)?.bars ?? [], batchStart - start));
      stepStart = entry.result?.timestamp;
      if (stepStart !== undefined) end = Math.max(end, stepStart);
    } else if (STEP_OUTPUTS.has(entry.item.type) && 'timestamp' in entry.item) {
      closeStep(entry.item.timestamp);
    }
  }
  return { bars, span: Math.max(end - start, 0.001), steps, calls };
}

/** The time the first logged row of a turn carries (its message's). */
function firstTimestamp(entries: readonly TimelineEntry[]): number | undefined {
  for (const entry of entries) {
    if (entry.kind === 'batch') return entry.calls[0]?.timestamp;
    if ('timestamp' in entry.item) return entry.item.timestamp;
  }
  return undefined;
}

/** Bars moved `by` seconds later on the time line. */
function shifted(bars: readonly GanttBar[], by: number): GanttBar[] {
  const move = ({ from, to }: { from: number; to: number }) => ({ from: from + by, to: to + by });
  return bars.map(({ wait, run, ...bar }) => ({
    ...bar,
    kind: 'call',
    ...(wait ? { wait: move(wait) } : {}),
    ...(run ? { run: move(run) } : {}),
  }));
}

/**
 * Each turn's rows, keyed by its end's row: from the turn's message (the last `user` row before
 * the end) to its `turn_end`.
 */
export function turnsByEnd(entries: readonly TimelineEntry[]): Map<string, TimelineEntry[]> {
  const turns = new Map<string, TimelineEntry[]>();
  let turnStart = 0;
  entries.forEach((entry, index) => {
    if (entry.kind !== 'item') return;
    if (entry.item.type === 'user') turnStart = index;
    if (entry.item.type === 'turn_end') turns.set(entry.key, entries.slice(turnStart, index + 1));
  });
  return turns;
}
