import type { StoredEvent } from '../events/stored-event.js';
import { blockJson } from './block-json.js';
import { capContent } from './cap-content.js';
import type { ModelMessage } from './model-message.js';

/**
 * One turn's events as messages (D1–D3): each model step becomes an assistant message of its parts
 * in order with one synthesized `<execute>` block; each `result` becomes a `<results>` user
 * message. Calls and results meet by batch id, not by adjacency; `cancelled` is not shown.
 */
export function renderTurn(events: readonly StoredEvent[], maxResultBytes: number): ModelMessage[] {
  const entries: Array<ModelMessage | StepDraft> = [];
  const steps = new Map<string, StepDraft>();
  const stepOf = (stored: StoredEvent): StepDraft => {
    const batch = stored.batch ?? `seq:${stored.seq}`;
    let step = steps.get(batch);
    if (step === undefined) {
      step = new StepDraft();
      steps.set(batch, step);
      entries.push(step);
    }
    return step;
  };
  for (const stored of events) {
    const { event } = stored;
    if (event.type === 'user') entries.push({ role: 'user', content: event.content });
    else if (event.type === 'think') stepOf(stored).parts.push(`<think>${event.content}</think>`);
    else if (event.type === 'respond') stepOf(stored).parts.push(event.content);
    else if (event.type === 'call') stepOf(stored).addCall(stored.position, event.content);
    else if (event.type === 'result') {
      stepOf(stored).executed = true;
      entries.push({ role: 'user', content: resultsBlock(event.content, maxResultBytes) });
    }
  }
  return entries.flatMap((entry) => (entry instanceof StepDraft ? entry.toMessages() : [entry]));
}

/** A model step's parts, collected until the turn is rendered. */
class StepDraft {
  readonly parts: string[] = [];
  readonly #calls: Array<{ position: number; call: unknown }> = [];
  executed = false;

  addCall(position: number | undefined, content: string): void {
    this.#calls.push({ position: position ?? this.#calls.length, call: parseJson(content) });
  }

  toMessages(): ModelMessage[] {
    const parts = [...this.parts];
    if (this.#calls.length > 0 || this.executed) {
      const calls = this.#calls.sort((a, b) => a.position - b.position).map(({ call }) => call);
      parts.push(`<execute>\n${blockJson(calls)}\n</execute>`);
    }
    return parts.length > 0 ? [{ role: 'assistant', content: parts.join('\n') }] : [];
  }
}

function resultsBlock(content: string, maxResultBytes: number): string {
  const items = parseJson(content);
  const capped = Array.isArray(items)
    ? items.map((item: unknown) => capItem(item, maxResultBytes))
    : capContent(items, maxResultBytes);
  return `<results>\n${blockJson(capped)}\n</results>`;
}

function capItem(item: unknown, maxResultBytes: number): unknown {
  if (typeof item !== 'object' || item === null || !('content' in item)) return item;
  return { ...item, content: capContent(item.content, maxResultBytes) };
}

/** Stored JSON text as a value; text that is not JSON is kept as the string it is. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
