import { timelineEntries } from './timeline-entries.js';
import type { TimelineItem } from './timeline-item.js';
import { TimelineRow } from './timeline-row.js';
import { turnsByEnd } from './turn-bars.js';

/** The session's timeline, oldest first; rows are only ever appended, so nothing above moves while it streams. */
export function Timeline({ items, session }: { items: readonly TimelineItem[]; session: string }) {
  const entries = timelineEntries(items);
  const turns = turnsByEnd(entries);
  return (
    <ol class="timeline" aria-label="Timeline" aria-live="polite">
      {entries.map((entry) => (
        <li key={entry.key}>
          <TimelineRow entry={entry} session={session} turn={turns.get(entry.key)} />
        </li>
      ))}
    </ol>
  );
}
