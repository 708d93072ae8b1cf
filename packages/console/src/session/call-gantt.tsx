import { batchBars } from './call-bars.js';
import { formatSeconds } from './elapsed.js';
import { GanttChart } from './gantt-chart.js';
import type { BatchEntry } from './timeline-entries.js';

/**
 * A finished batch's calls as bars on one time line, Gantt-style: calls that ran at once overlap,
 * a wait for approval shows before its run, and a slow call is the long bar; each with its figures.
 */
export function CallGantt({ batch }: { batch: BatchEntry }) {
  const drawn = batchBars(batch);
  if (drawn === undefined || drawn.bars.every((bar) => bar.run === undefined && bar.wait === undefined))
    return null;
  const { bars, span } = drawn;
  return (
    <figure class="call-gantt">
      <GanttChart bars={bars} span={span} label={`The batch's calls over ${formatSeconds(span)}`} />
      <figcaption>
        Calls over the batch's {formatSeconds(span)}: waits for approval (light), runs (dark)
      </figcaption>
    </figure>
  );
}
