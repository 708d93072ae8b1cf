import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import type { MarkdownNode } from './markdown-node.js';

// A handful of languages an agent's answers and tools mostly show (each grammar costs bundle
// size; highlight.js's "common" set would add ~150 KB); their aliases (ts, js, sh, py, yml, html)
// come with them. Anything else is shown as plain code.
const lowlight = createLowlight({ bash, diff, javascript, json, python, sql, typescript, xml, yaml });

/** A node of lowlight's output (hast), typed through lowlight rather than a types package of its own. */
type HastNode = ReturnType<typeof lowlight.highlight>['children'][number];

/** Code longer than this is shown plain: highlighting it would hold up the page for little gain. */
export const HIGHLIGHT_MAX_CHARS = 20_000;

/** Whether {@link highlightCode} highlights `language` (a name or alias such as `ts`). */
export function highlightsLanguage(language: string): boolean {
  return lowlight.registered(language);
}

/**
 * `code` as nodes: `<span class="hljs-…">` around its tokens when `language` is one the console
 * highlights and the code is not too long, otherwise the code as one string. Never HTML.
 */
export function highlightCode(code: string, language: string | undefined): MarkdownNode[] {
  if (language === undefined || code.length > HIGHLIGHT_MAX_CHARS || !highlightsLanguage(language))
    return [code];
  return lowlight.highlight(language, code).children.flatMap(fromHast);
}

/** A hast node of lowlight's output as nodes: its elements are spans with classes, its text text. */
function fromHast(node: HastNode): MarkdownNode[] {
  if (node.type === 'text') return [node.value];
  if (node.type !== 'element') return [];
  const className = node.properties.className;
  const classes = Array.isArray(className) ? className.join(' ') : String(className ?? '');
  return [{ tag: 'span', props: { class: classes }, children: node.children.flatMap(fromHast) }];
}
