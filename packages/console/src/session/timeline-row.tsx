import { Component } from 'preact';
import { BatchView } from './batch-view.js';
import { ForkButton } from './fork-button.js';
import { ItemView } from './item-view.js';
import type { TimelineEntry } from './timeline-entries.js';
import { TurnGantt } from './turn-gantt.js';

/**
 * What can change in a row once shown: a batch gains calls, approvals, outcomes of calls that
 * finished while it waited, and its result; any other row never changes.
 */
function versionOf(entry: TimelineEntry): string {
  return entry.kind === 'batch'
    ? `${entry.key}:${entry.calls.length}:${entry.approvals.length}:${entry.outcomes.length}:${entry.result?.seq ?? ''}`
    : entry.key;
}

/** The seq a session may be forked at after this row: a batch's results, or a turn's end. */
function forkPointOf(entry: TimelineEntry): number | undefined {
  if (entry.kind === 'batch') return entry.result?.seq;
  return entry.item.type === 'turn_end' ? entry.item.seq : undefined;
}

/**
 * A timeline row's props: the row, the session it belongs to (for "Fork from here") and, for a
 * turn's end, the turn's rows (for its timeline; they never change once the turn has ended).
 */
interface RowProps {
  entry: TimelineEntry;
  session: string;
  turn: readonly TimelineEntry[] | undefined;
}

/**
 * One row of the timeline, rendered again only when it changed: a long timeline that grows by a
 * few rows re-renders those rows, not every row above them. A row that ends at a fork point offers
 * "Fork from here"; a turn's end, the turn's timeline.
 */
export class TimelineRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return versionOf(next.entry) !== versionOf(this.props.entry) || next.session !== this.props.session;
  }

  override render() {
    const { entry, session, turn } = this.props;
    const forkPoint = forkPointOf(entry);
    return (
      <>
        {entry.kind === 'batch' ? <BatchView batch={entry} /> : <ItemView item={entry.item} />}
        {turn && <TurnGantt turn={turn} />}
        {forkPoint !== undefined && <ForkButton session={session} seq={forkPoint} />}
      </>
    );
  }
}
