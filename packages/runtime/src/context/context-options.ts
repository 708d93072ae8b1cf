import type { BuildMessagesOptions, CompactionStrategy, ContextSettings } from '@agentstep/protocol';
import type { Model } from '../model/model.js';

/**
 * How a model step keeps its context within the model's window (decision 0035): the agent's
 * `context` settings with its summary model made, and the cap on each result (B6).
 */
export interface ContextOptions extends BuildMessagesOptions {
  /** Input tokens one request may hold, for every model. @default - each model's own window, if known */
  windowTokens?: number;
  /** The share of the window past which the step compacts first. @default 0.8 */
  compactAt?: number;
  /** How the older part is replaced. @default 'summarize' */
  strategy?: CompactionStrategy;
  /** The model that writes summaries. @default - the turn's own model */
  summaryModel?: Model;
}

/** An agent's `context` settings as a model step reads them: its summary model made, when it names one. */
export function contextOptions(settings: ContextSettings, summaryModel?: Model): ContextOptions {
  const { windowTokens, compactAt, strategy } = settings;
  return {
    ...(windowTokens === undefined ? {} : { windowTokens }),
    ...(compactAt === undefined ? {} : { compactAt }),
    ...(strategy === undefined ? {} : { strategy }),
    ...(summaryModel === undefined ? {} : { summaryModel }),
  };
}
