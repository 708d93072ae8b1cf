import { prettyText } from './pretty-text.js';

/** Outputs longer than this many characters or lines are folded behind their first line. */
const FOLD_CHARS = 600;
const FOLD_LINES = 12;

/** A value shown as text (JSON pretty-printed); a large one folded in a `<details>` showing its first line. */
export function FoldedText({ value }: { value: unknown }) {
  const text = prettyText(value);
  const lines = text.split('\n');
  if (text.length <= FOLD_CHARS && lines.length <= FOLD_LINES) return <pre class="text">{text}</pre>;
  return (
    <details class="folded">
      <summary>
        {lines[0]?.slice(0, 80)} … ({lines.length} lines, {text.length} characters)
      </summary>
      <pre class="text">{text}</pre>
    </details>
  );
}
