/** A supervisor's verdict, with REORIENT's correction or PAUSE's question. */
export type Verdict = { verdict: 'CONTINUE' } | { verdict: 'REORIENT' | 'PAUSE'; text: string };

/**
 * The verdict a SUPERVISE answer gives: `CONTINUE`, `REORIENT: "<correction>"` or
 * `PAUSE: "<question>"` (quotes optional). Anything else asks a person, with the answer as the question.
 */
export function parseVerdict(answer: string): Verdict {
  const text = answer.trim();
  if (/^CONTINUE\b/.test(text)) return { verdict: 'CONTINUE' };
  const match = /^(REORIENT|PAUSE)\s*:\s*([\s\S]*)$/.exec(text);
  if (match) return { verdict: match[1] as 'REORIENT' | 'PAUSE', text: unquoted(match[2] ?? '') };
  return { verdict: 'PAUSE', text: `The supervisor's answer was not a verdict: ${text}` };
}

function unquoted(text: string): string {
  const trimmed = text.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : trimmed;
}
