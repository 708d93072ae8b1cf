import { deepFreeze } from '../deep-freeze.js';
import { type BatchElement, checkCall, type ParsedCall } from '../parser/parse-batch.js';

/** The calls known by their stored text, least recently used first, within {@link MAX_KNOWN_CHARS}. */
const known = new Map<string, ParsedCall>();
let knownChars = 0;
/** How much call text the process keeps checked calls for. */
const MAX_KNOWN_CHARS = 4 * 1024 * 1024;

/**
 * A stored `call` event's text as its checked element (A6), read once per process for each text:
 * the parser's check is remembered ({@link rememberCall}), and every later reader of the step's
 * calls (its approvals, its map items, the runaway guard, the tools function) shares it instead of
 * parsing and checking the JSON again. The text is what the model wrote (decision 0002); an element
 * that is not a call is checked each time, its reason naming `position`. Calls are frozen: readers
 * share them.
 */
export function storedCall(content: string, position: number): BatchElement {
  const call = known.get(content);
  if (call !== undefined) {
    known.delete(content);
    known.set(content, call);
    return { index: position, ok: true, call };
  }
  const element = checkCall(parsed(content), position);
  if (element.ok) rememberCall(content, element.call);
  return element;
}

/** The tool a stored call names, even when the rest of it is not a valid call; '' when it names none. */
export function storedCallName(content: string): string {
  return elementName(storedCall(content, 0));
}

/** The tool a checked element names, even when it is not a valid call; '' when it names none. */
export function elementName(element: BatchElement): string {
  if (element.ok) return element.call.name;
  const { element: value } = element;
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

/**
 * Remembers the checked `call` stored as `content` (the parser's, as it wrote the event), freezing
 * it: it is the one every later reader gets, so nobody may change it.
 */
export function rememberCall(content: string, call: ParsedCall): void {
  if (known.has(content) || content.length > MAX_KNOWN_CHARS) return;
  known.set(content, deepFreeze(call));
  knownChars += content.length;
  for (const [text] of known) {
    if (knownChars <= MAX_KNOWN_CHARS) break;
    known.delete(text);
    knownChars -= text.length;
  }
}

/** The JSON value of stored text; text that is not JSON (never written by the parser) as itself. */
function parsed(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}
