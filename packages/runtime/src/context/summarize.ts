import type { ModelMessage } from '@agentstep/protocol';
import type { Model, ModelRequest } from '../model/model.js';
import { addUsage, isUnreported, type ModelUsage, NO_USAGE } from '../model/model-usage.js';
import { summaryPrompt, summaryRequestText } from './summary-prompt.js';

/** One summary request's answer: its text and what the request used. */
export interface SummaryRun {
  summary: string;
  usage: ModelUsage;
  /** The provider reported no usage for a request: `usage` is then not what it billed. */
  usageUnknown?: true;
}

/** Roughly how many words fit in a token budget (English runs at about 0.75 words a token). */
const WORDS_PER_TOKEN = 0.7;

/**
 * Asks `model` for one summary of `previous` and the messages of the next part, within
 * `maxTokens` of output: the text it streams (native reasoning and `<think>` blocks left out),
 * trimmed, and its usage. `at` says which session and step the request serves.
 */
export async function summarize(
  model: Model,
  part: { previous: string | undefined; messages: readonly ModelMessage[] },
  at: Pick<ModelRequest, 'session' | 'step' | 'turnStep'> & { maxTokens: number },
): Promise<SummaryRun> {
  const request: ModelRequest = {
    ...(at.session === undefined ? {} : { session: at.session }),
    system: summaryPrompt(Math.max(50, Math.floor(at.maxTokens * WORDS_PER_TOKEN))),
    messages: [{ role: 'user', content: summaryRequestText(part.previous, transcriptOf(part.messages)) }],
    step: at.step,
    turnStep: at.turnStep,
    stopSequences: [],
    maxOutputTokens: at.maxTokens,
    purpose: 'compaction',
  };
  let text = '';
  let usage: ModelUsage | undefined;
  let unreported = false;
  for await (const part of model.stream(request)) {
    if (typeof part === 'string') text += part;
    else if (!('reasoning' in part)) {
      usage = addUsage(usage ?? NO_USAGE, part);
      unreported ||= isUnreported(part);
    }
  }
  const summary = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const unknown = unreported || (usage === undefined && model.usageMayBeUnknown === true);
  return { summary, usage: usage ?? NO_USAGE, ...(unknown ? { usageUnknown: true as const } : {}) };
}

/** Messages as a transcript a summarizer reads: each under its role. */
export function transcriptOf(messages: readonly ModelMessage[]): string {
  return messages.map(({ role, content }) => `[${role}]\n${content}`).join('\n\n');
}
