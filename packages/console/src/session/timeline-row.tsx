import { Component } from 'preact';
import { BatchView } from './batch-view.js';
import { ItemView } from './item-view.js';
import type { TimelineEntry } from './timeline-entries.js';

/** What can change in a row once shown: a batch gains calls and its result; any other row never changes. */
function versionOf(entry: TimelineEntry): string {
  return entry.kind === 'batch' ? `${entry.key}:${entry.calls.length}:${entry.result?.seq ?? ''}` : entry.key;
}

/**
 * One row of the timeline, rendered again only when it changed: a long timeline that grows by a
 * few rows re-renders those rows, not every row above them.
 */
export class TimelineRow extends Component<{ entry: TimelineEntry }> {
  override shouldComponentUpdate(next: { entry: TimelineEntry }): boolean {
    return versionOf(next.entry) !== versionOf(this.props.entry);
  }

  override render() {
    const { entry } = this.props;
    return entry.kind === 'batch' ? <BatchView batch={entry} /> : <ItemView item={entry.item} />;
  }
}
