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

/** Whether the rest of `text` from `at` is a proper prefix of `marker`: more input could complete it. */
export function startsPartially(text: string, at: number, marker: string): boolean {
  const rest = text.length - at;
  if (rest >= marker.length) return false;
  // Compared in place: this runs on every chunk, and a slice per call showed up in profiles.
  for (let offset = 0; offset < rest; offset++) {
    if (text.charCodeAt(at + offset) !== marker.charCodeAt(offset)) return false;
  }
  return true;
}

/** Whether the rest of `text` from `at` could still grow into a prose marker. */
export function isPartialMarker(text: string, at: number): boolean {
  return TEXT_MARKERS.some((marker) => startsPartially(text, at, marker));
}

/**
 * How many characters at the end of `text`, not before `from`, could be the start of `closer`.
 * Every marker has its only `<` first, so the candidate is the last `<` within reach.
 */
export function partialCloserLength(text: string, from: number, closer: string): number {
  const at = text.lastIndexOf('<');
  return at >= from && startsPartially(text, at, closer) ? text.length - at : 0;
}
