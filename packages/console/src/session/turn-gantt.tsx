import { useState } from 'preact/hooks';
import { formatSeconds } from './elapsed.js';
import { GanttChart } from './gantt-chart.js';
import type { TimelineEntry } from './timeline-entries.js';
import { turnBars } from './turn-bars.js';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * A finished turn on one time line, folded under its figures: each model step, then the calls of
 * its batch (fan-out, waits for approval and slow tools at a glance). Drawn once it is unfolded.
 */
export function TurnGantt({ turn }: { turn: readonly TimelineEntry[] }) {
  const [open, setOpen] = useState(false);
  const drawn = turnBars(turn);
  if (drawn === undefined || drawn.bars.length === 0) return null;
  const { bars, span, steps, calls } = drawn;
  const figures = `${plural(steps, 'model step')}, ${plural(calls, 'call')} in ${formatSeconds(span)}`;
  return (
    <details class="turn-gantt" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary class="figures">Timeline of the turn: {figures}</summary>
      {open && (
        <figure>
          <GanttChart bars={bars} span={span} label={`The turn's ${figures}`} />
          <figcaption>Model steps (outlined), waits for approval (light), calls running (dark)</figcaption>
        </figure>
      )}
    </details>
  );
}
