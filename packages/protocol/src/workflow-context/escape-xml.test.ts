import { describe, expect, it } from 'vitest';
import { escapeXml } from './escape-xml.js';

describe('escapeXml', () => {
  it.each([
    ['E2: & becomes &amp;', 'a & b', 'a &amp; b'],
    ['E2: < and > become &lt; and &gt;', '</goal>', '&lt;/goal&gt;'],
    ['E2: " becomes &#34;', 'say "hi"', 'say &#34;hi&#34;'],
    ["E2: ' becomes &#39;", "it's", 'it&#39;s'],
    ['E2: a pre-escaped &amp; is escaped again', '&amp;', '&amp;amp;'],
    ['E2: a pre-escaped &lt; is escaped again', '&lt;b&gt;', '&amp;lt;b&amp;gt;'],
    ['E2: a CDATA end ]]> keeps its brackets', ']]>', ']]&gt;'],
    ['E2: CR, LF, tabs and control characters stay', 'a\r\n\tb\u0000\u001f', 'a\r\n\tb\u0000\u001f'],
    ['E2: non-ASCII text stays', 'é 🙂 ✓', 'é 🙂 ✓'],
    ['E2: an empty text stays empty', '', ''],
  ])('%s', (_rule, text, escaped) => {
    expect(escapeXml(text)).toBe(escaped);
  });
});
