import type { ModelRequest } from './model.js';

/** Characters of each user message the summary quotes. */
const QUOTED = 80;
/** User messages the summary quotes at most, so it stays short. */
const MAX_QUOTES = 5;

/**
 * The summary a scripted model answers a compaction request with, built from the request alone:
 * the same request always gets the same text, which says how many messages and characters it
 * summarizes and quotes the start of each user message that is not a batch's `<results>`.
 */
export function scriptedSummary(request: ModelRequest): string {
  const { messages } = request;
  const characters = messages.reduce((sum, message) => sum + message.content.length, 0);
  const asked = messages
    .filter((message) => message.role === 'user' && !message.content.startsWith('<results>'))
    .map((message) => `«${message.content.slice(0, QUOTED).replace(/\s+/g, ' ').trim()}»`);
  const quoted = asked.slice(0, MAX_QUOTES).join(', ');
  const more = asked.length > MAX_QUOTES ? ` and ${asked.length - MAX_QUOTES} more` : '';
  const question = asked.length > 0 ? `; the user asked: ${quoted}${more}` : '';
  return `Summary by the scripted model of ${messages.length} messages (${characters} characters)${question}.`;
}
