import {
  type Compaction,
  type CompactionStrategy,
  compactedView,
  compactionCuts,
  estimateMessagesTokens,
  estimateTokens,
  type ModelMessage,
  renderMessages,
  type StoredEvent,
} from '@agentstep/protocol';
import { ContextOverflowError } from '../errors.js';

/** The most tokens a summary may take, however large the window. */
const MAX_SUMMARY_TOKENS = 4_096;
/** A summary's share of the window, in smaller windows. */
const SUMMARY_SHARE = 0.1;
/** What a `drop` note takes, at most. */
const DROP_NOTE_TOKENS = 60;
/**
 * The share of the room under the threshold (past the system prompt and the summary) that the
 * newest part kept whole may fill: the rest is what the session grows into before the next
 * compaction, so compactions stay rare.
 */
const KEEP_SHARE = 0.5;

/** What a compaction is sized by. */
export interface CompactionSizing {
  /** The log, in `seq` order: the current compaction and the events after it are what is compacted. */
  log: readonly StoredEvent[];
  system: string;
  model: string;
  /** Input tokens one request may hold. */
  window: number;
  /** Tokens the request should stay under: `compactAt × window`. */
  threshold: number;
  /** Tokens per estimated token (`tokenRatio`). */
  ratio: number;
  /** The request's tokens as it stands. */
  tokensBefore: number;
  strategy: CompactionStrategy;
  maxResultBytes?: number;
}

/** A compaction to make: where its older part ends, what it holds, and what stands for it now. */
export interface CompactionPlan {
  upToSeq: number;
  /** The older part's messages, in the pieces a cut may separate (each a batch's step and results, or a turn's start). */
  older: ModelMessage[][];
  /** The compaction in force, whose summary the new one takes in. */
  previous?: Compaction;
  /** The most tokens the new summary may take. */
  summaryTokens: number;
}

/** One stretch of the log between two cut points, rendered, and its estimated tokens. */
interface Segment {
  upToSeq: number;
  messages: ModelMessage[];
  tokens: number;
}

/**
 * Where to compact the context of `sizing.log` (decision 0035): the earliest cut point (after a
 * batch's results, before a turn's message) that leaves a newest part within its share of the
 * room, else the latest; `undefined` when there is no cut point and the request still fits its
 * window. Throws ContextOverflowError when even the newest part, kept whole, cannot fit.
 */
export function planCompaction(sizing: CompactionSizing): CompactionPlan | undefined {
  const view = compactedView(sizing.log);
  const segments = segmentsOf(view.events, sizing);
  const scaled = (tokens: number) => Math.ceil(tokens * sizing.ratio);
  const system = scaled(estimateTokens(sizing.system));
  const summaryTokens = Math.min(MAX_SUMMARY_TOKENS, Math.floor(sizing.window * SUMMARY_SHARE));
  const summary = sizing.strategy === 'drop' ? DROP_NOTE_TOKENS : summaryTokens;
  const cuts = segments.length - 1;
  if (cuts === 0) {
    if (sizing.tokensBefore <= sizing.window) return undefined;
    throw overflow(sizing, { system, summary, newest: sizing.tokensBefore - system });
  }
  const keptAfter = suffixSums(segments.map((segment) => scaled(segment.tokens)));
  const room = (sizing.threshold - system - summary) * KEEP_SHARE;
  const found = keptAfter.findIndex((kept, index) => index < cuts && kept <= room);
  const cut = found === -1 ? cuts - 1 : found;
  const newest = keptAfter[cut] ?? 0;
  if (system + summary + newest > sizing.window) throw overflow(sizing, { system, summary, newest });
  return {
    upToSeq: segments[cut]?.upToSeq ?? 0,
    older: segments.slice(0, cut + 1).map((segment) => segment.messages),
    ...(view.compaction === undefined ? {} : { previous: view.compaction }),
    summaryTokens,
  };
}

/**
 * The view's events split at its cut points: one segment ending at each cut, and the newest part
 * after the last (at least the latest exchange). `keptAfter[i]` is then what cutting at `i` keeps.
 */
function segmentsOf(events: readonly StoredEvent[], sizing: CompactionSizing): Segment[] {
  const options = sizing.maxResultBytes === undefined ? {} : { maxResultBytes: sizing.maxResultBytes };
  const segment = (part: readonly StoredEvent[], upToSeq: number): Segment => {
    const messages = renderMessages(part, options);
    return { upToSeq, messages, tokens: estimateMessagesTokens(messages) };
  };
  const segments: Segment[] = [];
  let start = 0;
  let end = 0;
  for (const cut of compactionCuts(events)) {
    while (end < events.length && (events[end]?.seq ?? 0) <= cut) end++;
    segments.push(segment(events.slice(start, end), cut));
    start = end;
  }
  segments.push(segment(events.slice(start), events.at(-1)?.seq ?? 0));
  return segments;
}

/** `sums[i]`: the sum of `values` after index `i`. */
function suffixSums(values: readonly number[]): number[] {
  const sums = new Array<number>(values.length).fill(0);
  for (let index = values.length - 2; index >= 0; index--)
    sums[index] = (sums[index + 1] ?? 0) + (values[index + 1] ?? 0);
  return sums;
}

function overflow(
  sizing: CompactionSizing,
  sizes: { system: number; summary: number; newest: number },
): ContextOverflowError {
  return new ContextOverflowError({ model: sizing.model, window: sizing.window, ...sizes });
}
