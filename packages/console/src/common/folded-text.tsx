import { useMemo } from 'preact/hooks';
import { highlightCode } from './highlight-code.js';
import { Markdown, toChild } from './markdown.js';
import { prettyJson } from './pretty-json.js';

/** Outputs longer than this many characters or lines are folded behind their first line. */
const FOLD_CHARS = 600;
const FOLD_LINES = 12;

/**
 * A value for people: data (a value, or a string holding JSON) as highlighted, pretty-printed JSON
 * code, any other string as Markdown; a large one folded in a `<details>` showing its first line.
 */
export function FoldedText({ value }: { value: unknown }) {
  const json = prettyJson(value);
  const text = json ?? String(value);
  const shown = json === undefined ? <Markdown text={text} /> : <JsonCode json={json} />;
  const lines = text.split('\n');
  if (text.length <= FOLD_CHARS && lines.length <= FOLD_LINES) return shown;
  return (
    <details class="folded">
      <summary>
        {lines[0]?.slice(0, 80)} … ({lines.length} lines, {text.length} characters)
      </summary>
      {shown}
    </details>
  );
}

function JsonCode({ json }: { json: string }) {
  const nodes = useMemo(() => highlightCode(json, 'json').map(toChild), [json]);
  return (
    <pre class="text">
      <code class="hljs language-json">{nodes}</code>
    </pre>
  );
}
