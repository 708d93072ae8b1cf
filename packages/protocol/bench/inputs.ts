const WORDS =
  'the model considers each file in turn and weighs whether the change is safe to make before it writes anything ' +
  'because a careful agent reads first then acts and verifies what it wrote against what it meant to write ';

/** Filler text of exactly `bytes` ASCII characters. */
function filler(bytes: number): string {
  return WORDS.repeat(Math.ceil(bytes / WORDS.length)).slice(0, bytes);
}

/** A long reasoning trace: one think block of `bytes`, then a short answer. */
export function reasoningTrace(bytes: number): string {
  return `<think>${filler(bytes - 40)}</think>\nThe answer is 42.`;
}

/** Prose, think blocks and fenced code repeated to `bytes`, ending in an execute block. */
export function mixedOutput(bytes: number): string {
  const unit =
    'Here is my plan, step by step. Some text mentions <tags> and a < b comparisons.\n' +
    `<think>${filler(600)}</think>\n` +
    '```ts\nconst x = a < b ? "</execute>" : "<think>";\n```\n';
  const batch =
    '<execute>\n[{"name": "write", "args": {"file": "a.html", "content": "<p>hi</p> </execute> \\"quoted\\""}}]\n</execute>';
  return unit.repeat(Math.max(1, Math.floor((bytes - batch.length) / unit.length))) + batch;
}

/** Splits `text` into `size`-character chunks (whole text when size is undefined). */
export function chunksOf(text: string, size: number | undefined): string[] {
  if (size === undefined) return [text];
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}
