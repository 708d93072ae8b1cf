import { rememberCall } from '../events/stored-call.js';
import { parseBatch } from './parse-batch.js';
import type { ParsedEvent } from './parsed-event.js';

/**
 * The events of one closed `<execute>` block (A6): a `call` or an indexed `error` per element in
 * array order, or a single unindexed `error` for a body that has no positions; then `execute`.
 */
export function batchEvents(body: string): ParsedEvent[] {
  const batch = parseBatch(body);
  if (!batch.ok) return [{ type: 'error', content: batch.reason }, { type: 'execute' }];
  const events = batch.elements.map((element): ParsedEvent => {
    if (element.ok) {
      const content = JSON.stringify(element.call);
      // Checked now: whoever reads this call's text next in this process reads it from here.
      rememberCall(content, element.call);
      return { type: 'call', content, payload: { index: element.index } };
    }
    return {
      type: 'error',
      content: element.reason,
      payload: { index: element.index, element: JSON.stringify(element.element) },
    };
  });
  return [...events, { type: 'execute' }];
}
