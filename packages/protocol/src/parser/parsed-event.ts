/**
 * An event as the parser produces it: the wire shape without a timestamp, which the caller adds
 * (the protocol package never reads a clock).
 */
export type ParsedEvent =
  | { type: 'think'; content: string }
  | { type: 'respond'; content: string }
  | { type: 'call'; content: string; payload: { index: number } }
  | { type: 'error'; content: string; payload?: { index: number; element: string } }
  | { type: 'execute' }
  | { type: 'end' };

/** How the parser streams text: whole units (`event`) or deltas as they arrive (`token`). */
export type ParseMode = 'event' | 'token';
