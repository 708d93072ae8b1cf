import { describe, expect, it } from 'vitest';
import { safeHref } from './safe-href.js';

describe('safeHref', () => {
  it.each([
    ['https://example.com/a b', 'https://example.com/a%20b'],
    ['http://example.com', 'http://example.com/'],
    ['  https://example.com/x  ', 'https://example.com/x'],
    ['mailto:ann@example.com', 'mailto:ann@example.com'],
  ])('keeps %j as %j', (href, safe) => {
    expect(safeHref(href)).toBe(safe);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    '/relative',
    '#/sessions/s1',
    '',
  ])('refuses %j', (href) => {
    expect(safeHref(href)).toBeUndefined();
  });
});
