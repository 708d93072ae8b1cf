/** Seconds since the epoch, as events are stamped, in milliseconds. */
export function ms(seconds: number): number {
  return Math.round(seconds * 1000);
}

/** Messages in the GenAI conventions' shape: one message of one text part, as JSON. */
export function messages(role: 'user' | 'assistant', content: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);
}

/** A tool's output as span text: as it is, or its JSON. */
export function contentText(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}
