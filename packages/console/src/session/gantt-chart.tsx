import type { CallBar } from './call-bars.js';
import { formatSeconds } from './elapsed.js';

const WIDTH = 600;
const ROW = 18;
const LABEL = 110;

/** A row of a Gantt chart: a call (its wait for approval, then its run) or a model step (its run). */
export interface GanttBar extends CallBar {
  kind?: 'step' | 'call';
}

/** What a {@link GanttChart} draws: its rows on one time line of `span` seconds. */
export interface GanttChartProps {
  bars: readonly GanttBar[];
  span: number;
  /** What the picture shows, for those who cannot see it. */
  label: string;
}

/**
 * Rows of bars on one time line, Gantt-style: what ran at once overlaps, a wait for approval shows
 * (light) before its run (dark), a model step has its own colour, and each bar names its figure.
 */
export function GanttChart({ bars, span, label }: GanttChartProps) {
  const x = (seconds: number) => LABEL + (seconds / span) * (WIDTH - LABEL);
  const width = (from: number, to: number) => Math.max(1, x(to) - x(from));
  return (
    <svg viewBox={`0 0 ${WIDTH} ${bars.length * ROW}`} role="img" aria-label={label}>
      {bars.map(({ name, wait, run, kind = 'call' }, row) => (
        <g key={`${row}-${name}`} class={`bar-${kind}`} transform={`translate(0 ${row * ROW})`}>
          <text class="name" x={0} y={ROW * 0.7}>
            {name}
          </text>
          {wait && (
            <rect class="wait" x={x(wait.from)} width={width(wait.from, wait.to)} y={3} height={ROW - 6}>
              <title>
                {name} waited {formatSeconds(wait.to - wait.from)} for approval
              </title>
            </rect>
          )}
          {run && (
            <rect class="run" x={x(run.from)} width={width(run.from, run.to)} y={3} height={ROW - 6}>
              <title>
                {name} {kind === 'step' ? 'took' : 'ran'} {formatSeconds(run.to - run.from)}
              </title>
            </rect>
          )}
        </g>
      ))}
    </svg>
  );
}
