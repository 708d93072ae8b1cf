import {
  type CompactionStrategy,
  estimateMessagesTokens,
  estimateTokens,
  type ModelMessage,
} from '@agentstep/protocol';
import { ContextTooLongError } from '../model/model-errors.js';
import { addUsage, NO_USAGE } from '../model/model-usage.js';
import type { CompactionInput } from './compact-context.js';
import type { CompactionPlan } from './plan-compaction.js';
import { type SummaryRun, summarize } from './summarize.js';
import { summaryPrompt, summaryRequestText } from './summary-prompt.js';

/** What the older part of a compaction held: the turns begun in it and the calls made. */
export interface LeftOut {
  turns: number;
  calls: number;
}

/** What stands for the older part: a summary and the model that wrote it, or a note; what writing it spent. */
export interface Replacement {
  summary: string;
  strategy: CompactionStrategy;
  model?: string;
  spent?: Omit<SummaryRun, 'summary'>;
}

/** A summary request's share of the window: room for an estimate that runs short. */
const REQUEST_SHARE = 0.9;
/** What a cut part says where it was cut. */
const CUT_MARKER = '\n[… cut here to fit the summary request]';

/**
 * What stands for a plan's older part: with `summarize`, the summary model's summary of the
 * compaction in force and the older part, asked in pieces that each fit the window; with `drop`
 * (or when the summary comes back empty, or the provider refuses it as too long), a one-line note
 * of what was left out.
 */
export async function replacementOf(
  plan: CompactionPlan,
  leftOut: LeftOut,
  input: CompactionInput,
): Promise<Replacement> {
  const note = {
    summary: `Events 1–${plan.upToSeq} were left out to fit the context window: ${counted(leftOut.turns, 'turn')}, ${counted(leftOut.calls, 'tool call')}.`,
    strategy: 'drop' as const,
  };
  if (input.strategy === 'drop') return note;
  try {
    const { summary, ...spent } = await summaryInPieces(plan, input);
    if (summary === undefined) return { ...note, spent };
    return { summary, strategy: 'summarize', model: input.summaryModel.id, spent };
  } catch (error) {
    if (error instanceof ContextTooLongError) return note;
    throw error;
  }
}

/**
 * Folds each piece of the older part into the summary in force, one summary request each;
 * `summary` is undefined when no request wrote one.
 */
async function summaryInPieces(
  plan: CompactionPlan,
  input: CompactionInput,
): Promise<Omit<SummaryRun, 'summary'> & { summary?: string }> {
  const maxWords = Math.floor(plan.summaryTokens * 0.7);
  const fixed = estimateTokens(summaryPrompt(maxWords) + summaryRequestText('', ''));
  const budget = (input.window * REQUEST_SHARE - 2 * plan.summaryTokens) / input.ratio - fixed;
  let summary = plan.previous?.summary;
  let written: string | undefined;
  let usage = NO_USAGE;
  let usageUnknown = false;
  for (const piece of piecesOf(plan.older, Math.max(1, Math.floor(budget)))) {
    const run = await summarize(
      input.summaryModel,
      { previous: summary, messages: piece },
      { ...input.state, turnStep: input.state.turnSteps, maxTokens: plan.summaryTokens },
    );
    usage = addUsage(usage, run.usage);
    usageUnknown ||= run.usageUnknown === true;
    if (run.summary === '') continue;
    written = cutToTokens(run.summary, Math.floor(plan.summaryTokens / input.ratio));
    summary = written;
  }
  return {
    ...(written === undefined ? {} : { summary: written }),
    usage,
    ...(usageUnknown ? { usageUnknown: true as const } : {}),
  };
}

/**
 * The older part's segments grouped into pieces within `budget` estimated tokens each, in order;
 * a segment larger than the budget alone is a piece of its own, cut to fit.
 */
function piecesOf(segments: readonly ModelMessage[][], budget: number): ModelMessage[][] {
  const pieces: ModelMessage[][] = [];
  let current: ModelMessage[] = [];
  let size = 0;
  const flush = () => {
    if (current.length > 0) pieces.push(current);
    current = [];
    size = 0;
  };
  for (const segment of segments) {
    const tokens = estimateMessagesTokens(segment);
    if (size + tokens > budget) flush();
    if (tokens > budget) pieces.push(fitted(segment, budget));
    else {
      current.push(...segment);
      size += tokens;
    }
  }
  flush();
  return pieces;
}

/** The messages that fit in `budget` estimated tokens, the first that does not cut to the rest. */
function fitted(messages: readonly ModelMessage[], budget: number): ModelMessage[] {
  const kept: ModelMessage[] = [];
  let left = budget;
  for (const message of messages) {
    const tokens = estimateMessagesTokens([message]);
    if (tokens > left) {
      kept.push({ ...message, content: cutToTokens(message.content, left, CUT_MARKER) });
      break;
    }
    kept.push(message);
    left -= tokens;
  }
  return kept;
}

/** `count` things named `noun`, in the plural unless one. */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `text` within `tokens` estimated tokens: whole when it fits, else its start and `marker`. */
function cutToTokens(text: string, tokens: number, marker = ' …'): string {
  if (estimateTokens(text) <= tokens) return text;
  const room = Math.max(0, tokens - estimateTokens(marker));
  let cut = text.slice(0, room * 4);
  while (cut.length > 0 && estimateTokens(cut) > room) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  return `${cut}${marker}`;
}
