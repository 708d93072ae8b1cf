import { utf8Length } from './cap-content.js';
import type { ModelMessage } from './model-message.js';

/** UTF-8 bytes per token of the estimate: English prose and JSON run at 3 to 4.5 with every tokenizer. */
const BYTES_PER_TOKEN = 4;
/** What a message costs besides its text: its role and the markers around it. */
const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * A rough count of the tokens `text` takes: its UTF-8 bytes over four (bytes, not characters, so
 * that scripts of many bytes per character count more). Callers calibrate it with what the
 * provider reported for an earlier request.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / BYTES_PER_TOKEN);
}

/** {@link estimateTokens} of one message (or the system prompt), with what its role and markers add. */
export function estimateMessageTokens(message: { content: string }): number {
  return estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
}

/** {@link estimateMessageTokens} of messages. */
export function estimateMessagesTokens(messages: readonly ModelMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

/** {@link estimateTokens} of a request: its system prompt (with the tools it describes) and its messages. */
export function estimateRequestTokens(system: string, messages: readonly ModelMessage[]): number {
  return estimateMessageTokens({ content: system }) + estimateMessagesTokens(messages);
}
