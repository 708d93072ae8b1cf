import { createParser, type ParsedEvent, StepEventCap } from '@agentstep/protocol';
import type { Model, ModelRequest } from '../model/model.js';
import { addUsage, type ModelUsage, NO_USAGE } from '../model/model-usage.js';
import { reasoningAsThink } from '../model/reasoning-as-think.js';

/** Stop sequences every model step passes (A7, A9). */
export const STOP_SEQUENCES = ['</execute>', '<end>'] as const;

/** One model step's parsed output and the tokens its requests used. */
export interface ModelRun {
  events: ParsedEvent[];
  usage: ModelUsage;
  /** Set when the provider reported no usage at all: `usage` is then not what it billed. */
  usageUnknown?: true;
}

/**
 * Streams one model step through the event-mode parser, handing each text chunk to `onText` as it
 * arrives. Once the step is over (`</execute>`, `<end>`) text is ignored, while the stream is read
 * to its end for the usage the provider reports there (a provider stream is closed at its marker
 * once that report is read: `continueAtStops`). Past the cap on a step's events, whose error then
 * ends the events, it stops reading at once, which cancels the provider's stream.
 */
export async function runModel(
  model: Model,
  request: ModelRequest,
  onText: (text: string) => void = () => {},
): Promise<ModelRun> {
  const parser = createParser();
  const cap = new StepEventCap();
  const events: ParsedEvent[] = [];
  let usage: ModelUsage | undefined;
  let over = false;
  // Native reasoning reaches the parser (and `onText`, for token mode) as `<think>` blocks.
  for await (const part of reasoningAsThink(model.stream(request))) {
    if (typeof part !== 'string') {
      usage = addUsage(usage ?? NO_USAGE, part);
      continue;
    }
    if (over) continue;
    onText(part);
    // One at a time, and only the new ones checked: a chunk may complete a huge number of events.
    for (const event of cap.admit(parser.push(part))) {
      events.push(event);
      over ||= event.type === 'execute' || event.type === 'end';
    }
    if (cap.over) return { events, ...reported(usage, model) };
  }
  return { events: over ? events : [...events, ...cap.admit(parser.end())], ...reported(usage, model) };
}

/** The step's usage; a provider's step that reported none has an unknown usage, a script's used none. */
function reported(usage: ModelUsage | undefined, model: Model): Pick<ModelRun, 'usage' | 'usageUnknown'> {
  if (usage !== undefined) return { usage };
  return model.usageMayBeUnknown ? { usage: NO_USAGE, usageUnknown: true } : { usage: NO_USAGE };
}
