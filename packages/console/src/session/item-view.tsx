import { FoldedText } from '../common/folded-text.js';
import { formatUsd } from '../common/format-usd.js';
import { Markdown } from '../common/markdown.js';
import { compactionLine } from './compaction-line.js';
import type { TimelineEntry } from './timeline-entries.js';

/** One timeline item that is not a call: a logged event (marked with its `seq`), a step's metric or an error. */
export function ItemView({ item }: { item: Extract<TimelineEntry, { kind: 'item' }>['item'] }) {
  switch (item.type) {
    case 'user':
      return (
        <div class="item user" data-seq={item.seq}>
          <span class="label">You</span>
          <p class="prose">{item.content}</p>
        </div>
      );
    case 'think':
      return (
        <details class="item think" data-seq={item.seq}>
          <summary>Thinking</summary>
          <p class="prose">{item.content}</p>
        </details>
      );
    case 'respond':
      return (
        <div class="item respond" data-seq={item.seq}>
          <Markdown text={item.content} />
        </div>
      );
    case 'result':
      return (
        <div class="item result" data-seq={item.seq}>
          <FoldedText value={item.content} />
        </div>
      );
    case 'cancelled':
      return (
        <div class="item cancelled" data-seq={item.seq}>
          {item.content ?? 'Cancelled.'}
        </div>
      );
    case 'turn_start':
      return (
        <div class="item turn-start" data-seq={item.seq}>
          On agent version <code>{item.payload.version}</code>
        </div>
      );
    case 'turn_end':
      return (
        <div class={`item turn-end ${item.payload.status}`} data-seq={item.seq}>
          Turn ended: {item.payload.status}
          {item.payload.error ? ` (${item.payload.error})` : ''} — {item.content}
        </div>
      );
    case 'approval':
      return (
        <div class="item approval" data-seq={item.seq}>
          Approval {item.payload.status}: call {item.payload.index + 1}
          {item.payload.tool ? ` (${item.payload.tool})` : ''}
          {item.payload.by ? ` by ${item.payload.by}` : ''}
          {item.payload.reason ? `: ${item.payload.reason}` : ''}
        </div>
      );
    case 'workflow':
      return (
        <div class="item workflow" data-seq={item.seq}>
          Workflow record: {item.payload.kind}
        </div>
      );
    case 'compacted':
      return (
        <details class="item compacted" data-seq={item.seq}>
          <summary>{compactionLine(item.payload)}</summary>
          <Markdown text={item.payload.summary} />
        </details>
      );
    case 'metric':
      return (
        <div class="item metric">
          {item.purpose ?? 'step'}: {item.input} in · {item.output} out
          {item.costUsd === undefined ? '' : ` · ${formatUsd(item.costUsd)}`}
        </div>
      );
    case 'error':
      return (
        <div class="item error" role="alert">
          {item.content}
        </div>
      );
  }
}
