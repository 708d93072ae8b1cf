import { timelineEntries } from './timeline-entries.js';
import type { TimelineItem } from './timeline-item.js';
import { TimelineRow } from './timeline-row.js';

/** The session's timeline, oldest first; rows are only ever appended, so nothing above moves while it streams. */
export function Timeline({ items, session }: { items: readonly TimelineItem[]; session: string }) {
  return (
    <ol class="timeline" aria-label="Timeline" aria-live="polite">
      {timelineEntries(items).map((entry) => (
        <li key={entry.key}>
          <TimelineRow entry={entry} session={session} />
        </li>
      ))}
    </ol>
  );
}
