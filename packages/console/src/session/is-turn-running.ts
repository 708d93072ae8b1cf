import type { TimelineItem } from './timeline-item.js';

/** Whether the log shows a turn that has not ended: a `user` event after the last `turn_end`. */
export function isTurnRunning(items: readonly TimelineItem[]): boolean {
  for (let index = items.length - 1; index >= 0; index--) {
    const type = items[index]?.type;
    if (type === 'turn_end') return false;
    if (type === 'user') return true;
  }
  return false;
}
