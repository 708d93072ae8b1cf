import { createParser, type ParsedEvent } from '@agentstep/protocol';
import type { Model, ModelRequest } from '../model/model.js';

/** Stop sequences every model step passes (A7, A9). */
export const STOP_SEQUENCES = ['</execute>', '<end>'] as const;

/**
 * Streams one model step through the event-mode parser. Stops reading as soon as the step is over
 * (`</execute>` or `<end>`), which also cancels the provider's stream.
 */
export async function runModel(model: Model, request: ModelRequest): Promise<ParsedEvent[]> {
  const parser = createParser();
  const events: ParsedEvent[] = [];
  for await (const chunk of model.stream(request)) {
    events.push(...parser.push(chunk));
    if (events.some((event) => event.type === 'execute' || event.type === 'end')) return events;
  }
  return [...events, ...parser.end()];
}
