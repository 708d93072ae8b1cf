import { batchBars } from './call-bars.js';
import { formatSeconds } from './elapsed.js';
import type { BatchEntry } from './timeline-entries.js';

const WIDTH = 600;
const ROW = 18;
const LABEL = 110;

/**
 * A finished batch's calls as bars on one time line, Gantt-style: calls that ran at once overlap,
 * a wait for approval shows before its run, and a slow call is the long bar; each with its figures.
 */
export function CallGantt({ batch }: { batch: BatchEntry }) {
  const drawn = batchBars(batch);
  if (drawn === undefined || drawn.bars.every((bar) => bar.run === undefined && bar.wait === undefined))
    return null;
  const { bars, span } = drawn;
  const x = (seconds: number) => LABEL + (seconds / span) * (WIDTH - LABEL);
  const width = (from: number, to: number) => Math.max(1, x(to) - x(from));
  return (
    <figure class="call-gantt">
      <svg
        viewBox={`0 0 ${WIDTH} ${bars.length * ROW}`}
        role="img"
        aria-label={`The batch's calls over ${formatSeconds(span)}`}
      >
        {bars.map(({ name, wait, run }, row) => (
          <g key={`${row}-${name}`} transform={`translate(0 ${row * ROW})`}>
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
                  {name} ran {formatSeconds(run.to - run.from)}
                </title>
              </rect>
            )}
          </g>
        ))}
      </svg>
      <figcaption>
        Calls over the batch's {formatSeconds(span)}: waits for approval (light), runs (dark)
      </figcaption>
    </figure>
  );
}
