/**
 * The first JSON object in a model's output (the structured fields of agentfile "Structured
 * outputs"), wherever it sits: in a ```json fence, after prose, after a `{` that starts no valid
 * object. Each `{` is matched to its `}` by a scan that knows JSON strings and escapes, so braces
 * inside strings never count; the first candidate that `JSON.parse` accepts wins.
 */
export function firstJsonObject(text: string): Record<string, unknown> | undefined {
  const closes = new Map<number, number>();
  for (let open = text.indexOf('{'); open !== -1; open = text.indexOf('{', open + 1)) {
    if (!closes.has(open)) recordCloses(text, open, closes);
    const close = closes.get(open) ?? -1;
    if (close === -1) continue;
    const object = parsedObject(text.slice(open, close + 1));
    if (object !== undefined) return object;
  }
  return undefined;
}

/**
 * Scans from the `{` at `open` to its matching `}`, recording the close (or -1: none) of every `{`
 * met outside strings on the way: a scan from any of them would read the same characters in the
 * same state, so each brace is scanned once and text full of unmatched `{` stays linear.
 */
function recordCloses(text: string, open: number, closes: Map<number, number>): void {
  const opens: number[] = [];
  let inString = false;
  for (let index = open; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
    } else if (character === '{') {
      opens.push(index);
    } else if (character === '}') {
      const matched = opens.pop();
      if (matched !== undefined) closes.set(matched, index);
      if (opens.length === 0) return;
    }
  }
  for (const unclosed of opens) closes.set(unclosed, -1);
}

function parsedObject(candidate: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(candidate);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
