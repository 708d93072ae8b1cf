/** The blocks a model can open (A1). */
export type BlockKind = 'think' | 'execute' | 'results';

/** Opening marker of each block, exactly as A1 spells it. */
export const OPENERS: Readonly<Record<BlockKind, string>> = {
  think: '<think>',
  execute: '<execute>',
  results: '<results>',
};

/** Closing marker of each block. */
export const CLOSERS: Readonly<Record<BlockKind, string>> = {
  think: '</think>',
  execute: '</execute>',
  results: '</results>',
};

/** The self-closing end-of-turn marker (A9). */
export const END_MARKER = '<end>';

const TEXT_MARKERS = [OPENERS.think, OPENERS.execute, OPENERS.results, END_MARKER];

/** The marker that starts at `at` in prose, if any. */
export function markerAt(text: string, at: number): BlockKind | 'end' | undefined {
  if (text.startsWith(OPENERS.think, at)) return 'think';
  if (text.startsWith(OPENERS.execute, at)) return 'execute';
  if (text.startsWith(OPENERS.results, at)) return 'results';
  if (text.startsWith(END_MARKER, at)) return 'end';
  return undefined;
}

/** Whether the rest of `text` from `at` could still grow into a prose marker. */
export function isPartialMarker(text: string, at: number): boolean {
  const rest = text.slice(at);
  return TEXT_MARKERS.some((marker) => rest.length < marker.length && marker.startsWith(rest));
}

/**
 * How many characters at the end of `text`, not before `from`, could be the start of `closer`.
 * Every marker has its only `<` first, so the candidate is the last `<` within reach.
 */
export function partialCloserLength(text: string, from: number, closer: string): number {
  const at = text.lastIndexOf('<');
  if (at < from || text.length - at >= closer.length) return 0;
  return closer.startsWith(text.slice(at)) ? text.length - at : 0;
}
