/** One chat message as every provider accepts it: plain text, alternating roles. */
export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string;
}
