import { createParser, type ParsedEvent, StepEventCap, StepOutputCap } from '@agentstep/protocol';
import type { Model, ModelRequest } from '../model/model.js';
import { addUsage, isUnreported, type ModelUsage, NO_USAGE } from '../model/model-usage.js';
import { reasoningAsThink } from '../model/reasoning-as-think.js';
import { closeDrained, type Drain, usageAfterEnd } from '../model/usage-after-end.js';

/** Stop sequences every model step passes (A7, A9). */
export const STOP_SEQUENCES = ['</execute>', '<end>'] as const;

/** One model step's parsed output and the tokens its requests used. */
export interface ModelRun {
  events: ParsedEvent[];
  usage: ModelUsage;
  /** The input tokens the provider reported for the step's first request, which calibrates estimates. */
  firstInputTokens?: number;
  /** Set when the provider reported no usage at all: `usage` is then not what it billed. */
  usageUnknown?: true;
}

/**
 * Streams one model step through the event-mode parser, handing each text chunk to `onText` as it
 * arrives. Once the step is over (`</execute>`, `<end>`) the rest of the stream is read only for
 * the usage reported at its end, within bounds (`usageAfterEnd`), then closed. Past the cap on a
 * step's events or on its bytes of text (`STEP_CAPS`), whose error then ends the events, it stops
 * reading at once, which cancels the provider's stream.
 */
export async function runModel(
  model: Model,
  request: ModelRequest,
  onText: (text: string) => void = () => {},
): Promise<ModelRun> {
  const parser = createParser();
  const cap = new StepEventCap();
  const size = new StepOutputCap();
  const events: ParsedEvent[] = [];
  let usage: ModelUsage | undefined;
  let firstInputTokens: number | undefined;
  let unreported = false;
  const count = (part: ModelUsage) => {
    if (firstInputTokens === undefined && part.inputTokens > 0) firstInputTokens = part.inputTokens;
    usage = addUsage(usage ?? NO_USAGE, part);
    unreported ||= isUnreported(part);
  };
  // Native reasoning reaches the parser (and `onText`, for token mode) as `<think>` blocks.
  const parts = reasoningAsThink(model.stream(request))[Symbol.asyncIterator]();
  const drain: Drain = { readPending: false };
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      const part = next.value;
      if (typeof part !== 'string') {
        count(part);
        continue;
      }
      // Counted before the parser reads it: the chunk past the cap is never parsed, the open block dropped.
      if (!size.admit(part)) {
        events.push(size.refusal());
        return { events, ...reported(unreported ? undefined : usage, model, firstInputTokens) };
      }
      onText(part);
      // One at a time, and only the new ones checked: a chunk may complete a huge number of events.
      let over = false;
      for (const event of cap.admit(parser.push(part))) {
        events.push(event);
        over ||= event.type === 'execute' || event.type === 'end';
      }
      if (cap.over) return { events, ...reported(unreported ? undefined : usage, model, firstInputTokens) };
      if (over) {
        for await (const late of usageAfterEnd(parts, drain)) count(late);
        return { events, ...reported(unreported ? undefined : usage, model, firstInputTokens) };
      }
    }
  } finally {
    await closeDrained(parts, drain, undefined);
  }
  return {
    events: [...events, ...cap.admit(parser.end())],
    ...reported(unreported ? undefined : usage, model, firstInputTokens),
  };
}

/** The step's usage; a provider's step that reported none has an unknown usage, a script's used none. */
function reported(
  usage: ModelUsage | undefined,
  model: Model,
  firstInputTokens: number | undefined,
): Pick<ModelRun, 'usage' | 'usageUnknown' | 'firstInputTokens'> {
  if (usage !== undefined) return { usage, ...(firstInputTokens === undefined ? {} : { firstInputTokens }) };
  return model.usageMayBeUnknown ? { usage: NO_USAGE, usageUnknown: true } : { usage: NO_USAGE };
}
