import type { ModelPart } from './model.js';
import type { ModelUsage } from './model-usage.js';

/**
 * How much of a stream is read past the end of a step's output while waiting for its usage
 * report: 16,384 characters of text or reasoning (about 4,000 tokens), within 10 s.
 */
export const DRAIN_LIMITS = { chars: 16_384, ms: 10_000 };

/** The rest of a stream being read for its usage: `readPending` once the deadline left a read unanswered. */
export interface Drain {
  readPending: boolean;
}

/**
 * The usage reports in the rest of a stream whose step output is over: a provider reports usage at
 * the end of its stream, so a step closed at its marker reads on to it, discarding text and
 * reasoning, so that the step's metric equals what the provider billed. Past `limits`, or on a
 * failure of the stream (the step's output is whole already), the read stops and the usage still
 * to come stays unknown; past the deadline `drain.readPending` is set, and the caller closes the
 * stream without waiting for that read.
 */
export async function* usageAfterEnd(
  parts: AsyncIterator<ModelPart>,
  drain: Drain,
  limits = DRAIN_LIMITS,
): AsyncGenerator<ModelUsage> {
  const deadline = Date.now() + limits.ms;
  let chars = 0;
  for (;;) {
    const next = await nextBefore(parts, deadline);
    if (next === 'late') {
      drain.readPending = true;
      return;
    }
    if (next === 'failed' || next.done) return;
    const part = next.value;
    if (typeof part === 'string') chars += part.length;
    else if ('reasoning' in part) chars += part.reasoning.length;
    else yield part;
    if (chars > limits.chars) return;
  }
}

/**
 * Closes a stream (`parts.return(value)`), waiting for it to close unless the drain's deadline
 * left a read pending on it, which the close would wait for.
 */
export async function closeDrained<Value>(
  parts: AsyncIterator<unknown, Value>,
  drain: Drain,
  value: Value,
): Promise<void> {
  const closing = parts.return?.(value);
  if (drain.readPending) closing?.catch(() => {});
  else await closing;
}

/** The stream's next part; `failed` when the stream fails, `late` when the deadline passes first. */
function nextBefore(
  parts: AsyncIterator<ModelPart>,
  deadline: number,
): Promise<IteratorResult<ModelPart> | 'failed' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((settle) => {
    timer = setTimeout(() => settle('late'), Math.max(0, deadline - Date.now()));
  });
  const next = parts.next().catch((): 'failed' => 'failed');
  return Promise.race([next, late]).finally(() => clearTimeout(timer));
}
