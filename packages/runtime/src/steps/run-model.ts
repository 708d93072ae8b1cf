import { createParser, type ParsedEvent, StepEventCap } from '@agentstep/protocol';
import type { Model, ModelRequest } from '../model/model.js';
import { addUsage, type ModelUsage, NO_USAGE } from '../model/model-usage.js';

/** Stop sequences every model step passes (A7, A9). */
export const STOP_SEQUENCES = ['</execute>', '<end>'] as const;

/** One model step's parsed output and the tokens its requests used. */
export interface ModelRun {
  events: ParsedEvent[];
  usage: ModelUsage;
}

/**
 * Streams one model step through the event-mode parser, handing each text chunk to `onText` as it
 * arrives. Stops reading as soon as the step is over (`</execute>`, `<end>`, or past the cap on a
 * step's events, whose error then ends the events), which also cancels the provider's stream.
 */
export async function runModel(
  model: Model,
  request: ModelRequest,
  onText: (text: string) => void = () => {},
): Promise<ModelRun> {
  const parser = createParser();
  const cap = new StepEventCap();
  const events: ParsedEvent[] = [];
  let usage = NO_USAGE;
  for await (const part of model.stream(request)) {
    if (typeof part !== 'string') {
      usage = addUsage(usage, part);
      continue;
    }
    onText(part);
    // One at a time, and only the new ones checked: a chunk may complete a huge number of events.
    let over = false;
    for (const event of cap.admit(parser.push(part))) {
      events.push(event);
      over ||= event.type === 'execute' || event.type === 'end';
    }
    if (over || cap.over) return { events, usage };
  }
  return { events: [...events, ...cap.admit(parser.end())], usage };
}
