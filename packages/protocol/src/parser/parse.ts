import { createParser, type ParserOptions } from './create-parser.js';
import type { ParsedEvent } from './parsed-event.js';

/** Parses one complete model step's output; the same events as streaming it in any chunks. */
export function parse(text: string, options: ParserOptions = {}): ParsedEvent[] {
  const parser = createParser(options);
  return [...parser.push(text), ...parser.end()];
}
