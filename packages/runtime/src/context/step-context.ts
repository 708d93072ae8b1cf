import {
  compactedView,
  DEFAULT_COMPACT_AT,
  estimateMessageTokens,
  type LoopState,
  type ModelMessage,
  type StoredEvent,
} from '@agentstep/protocol';
import type { TurnCarry } from '../event-log/context-start.js';
import type { LogSnapshot } from '../event-log/event-log.js';
import type { Model } from '../model/model.js';
import type { ContextTooLongError } from '../model/model-errors.js';
import { type CompactionDeps, compactContext } from './compact-context.js';
import { ContextCache } from './context-cache.js';
import type { ContextOptions } from './context-options.js';
import { windowOf } from './context-window.js';
import { DEFAULT_TOKEN_RATIO, tokenRatio } from './token-ratio.js';

/** The request a model step sends, as the log and its window allow. */
export interface StepContextInput {
  state: Pick<LoopState, 'session' | 'turn' | 'step' | 'turnSteps'>;
  /** The step the context is for. */
  batch: string;
  /** The session's log, from seq 1 or from the context's start (decision 0039). */
  log: readonly StoredEvent[];
  system: string;
  model: Model;
  /** What the turn carries past a compaction, counted through the log's end: a compaction records it. */
  carry?: () => TurnCarry;
  /** The mark and its note as the step's snapshot gave them: the previous step's, read with the log. */
  marked?: Pick<LogSnapshot, 'mark' | 'markNote'>;
}

/** What a model step's context is, once kept within its window. */
export interface StepContext {
  /** The log with the compaction the step appended, if it did. */
  log: readonly StoredEvent[];
  messages: ModelMessage[];
  /** `estimateRequestTokens` of the system prompt and the messages, which the step's note records. */
  estimatedTokens: number;
  /** Tokens per estimated token, as the session's previous step calibrated it. */
  ratio: number;
}

/** What a step's context needs: the log to compact into, the clock, prices, and the agent's settings. */
export interface StepContextDeps extends CompactionDeps {
  context?: ContextOptions;
  /** Each session's messages rendered so far, extended step by step. @default none: rendered whole */
  contextCache?: ContextCache;
}

/**
 * The messages of model step `batch` (decision 0035): rebuilt from the log, and when the request
 * would pass `compactAt` of the model's window, compacted first. The previous step's note
 * calibrates the estimate, read only when the request comes near the threshold.
 */
export async function stepContext(input: StepContextInput, deps: StepContextDeps): Promise<StepContext> {
  const settings = deps.context ?? {};
  const context = contextOf(input, input.log, deps, DEFAULT_TOKEN_RATIO);
  const window = windowOf(input.model, settings);
  if (window === undefined) return context;
  const threshold = (settings.compactAt ?? DEFAULT_COMPACT_AT) * window;
  if (context.estimatedTokens * DEFAULT_TOKEN_RATIO < threshold / 2) return context;
  const ratio = await tokenRatio(input.state.session, input.log, input.model, deps, input.marked);
  const tokensBefore = Math.ceil(context.estimatedTokens * ratio);
  if (tokensBefore <= threshold) return { ...context, ratio };
  return compacted(input, { window, threshold, ratio, tokensBefore }, deps);
}

/**
 * The context after the provider refused `sent` as too long: compacted once more, as if the
 * request had been at least 10% over the window (or as large as the provider said), within the
 * smaller of the window known and the one the provider named. Rethrows the refusal when no window
 * is known at all; throws ContextOverflowError when nothing can be cut.
 */
export async function contextAfterRefusal(
  input: StepContextInput,
  sent: StepContext,
  refusal: ContextTooLongError,
  deps: StepContextDeps,
): Promise<StepContext> {
  const { limitTokens, requestTokens } = refusal.figures;
  const known = windowOf(input.model, deps.context);
  const window =
    known === undefined || limitTokens === undefined ? (known ?? limitTokens) : Math.min(known, limitTokens);
  if (window === undefined) throw refusal;
  const tokensBefore = Math.max(requestTokens ?? 0, Math.ceil(window * 1.1));
  const ratio = Math.max(sent.ratio, tokensBefore / Math.max(1, sent.estimatedTokens));
  const threshold = (deps.context?.compactAt ?? DEFAULT_COMPACT_AT) * window;
  return compacted({ ...input, log: sent.log }, { window, threshold, ratio, tokensBefore }, deps);
}

async function compacted(
  input: StepContextInput,
  sizing: { window: number; threshold: number; ratio: number; tokensBefore: number },
  deps: StepContextDeps,
): Promise<StepContext> {
  const settings = deps.context ?? {};
  const log = await compactContext(
    {
      ...input,
      ...sizing,
      model: input.model.id,
      strategy: settings.strategy ?? 'summarize',
      summaryModel: settings.summaryModel ?? input.model,
      ...(settings.maxResultBytes === undefined ? {} : { maxResultBytes: settings.maxResultBytes }),
    },
    deps,
  );
  return contextOf(input, log, deps, sizing.ratio);
}

/** The context of `log`, rendered through the process's cache (without one, a cache of its own renders it whole). */
function contextOf(
  input: StepContextInput,
  log: readonly StoredEvent[],
  deps: StepContextDeps,
  ratio: number,
): StepContext {
  const cache = deps.contextCache ?? new ContextCache();
  const { messages, tokens } = cache.messages(input.state.session, compactedView(log), deps.context);
  // As estimateRequestTokens counts: the system prompt, then the messages.
  return { log, messages, estimatedTokens: estimateMessageTokens({ content: input.system }) + tokens, ratio };
}
