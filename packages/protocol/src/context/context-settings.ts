import * as z from 'zod';
import { COMPACTION_STRATEGIES } from '../events/wire-event.js';

/** The share of the context window past which a step compacts first, when none is given. */
export const DEFAULT_COMPACT_AT = 0.8;

/** The smallest context window compaction works in: a system prompt, a summary and the newest exchange. */
export const MIN_WINDOW_TOKENS = 1_000;

/**
 * How an agent keeps its context within the model's window (decision 0035), as `defineAgent`'s
 * `context`, the CLI's `--context-window`/`--compaction` and the construct read it.
 */
export const contextSettingsSchema = z
  .object({
    /**
     * Input tokens one request may hold, for every model of the agent. @default - each model's
     * own window (`CONTEXT_WINDOWS`, or its provider's); none known: the context is not compacted
     */
    windowTokens: z.number().int().min(MIN_WINDOW_TOKENS).optional(),
    /** The share of the window past which a step compacts the context first. @default 0.8 */
    compactAt: z.number().min(0.2).max(0.95).optional(),
    /** `summarize` (a model writes a summary) or `drop` (a note of what was left out). @default 'summarize' */
    strategy: z.enum(COMPACTION_STRATEGIES).optional(),
    /** The model that writes summaries, as `model` names one. @default - the turn's own model */
    summaryModel: z.string().min(1).optional(),
  })
  .strict();

/** How an agent compacts its context. */
export type ContextSettings = z.infer<typeof contextSettingsSchema>;
