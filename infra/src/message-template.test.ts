import { describe, expect, it } from 'vitest';
import { parseMessageTemplate, wholeField } from './message-template.js';

describe('parseMessageTemplate', () => {
  it.each([
    ['Write the daily report.', [{ text: 'Write the daily report.' }]],
    ['<$.detail.text>', [{ path: '$.detail.text' }]],
    [
      'Order <$.detail.order-id> of <$.detail.items[0]>.',
      [
        { text: 'Order ' },
        { path: '$.detail.order-id' },
        { text: ' of ' },
        { path: '$.detail.items[0]' },
        { text: '.' },
      ],
    ],
    ['<$.body.a_b/c><$.body.d>', [{ path: '$.body.a_b/c' }, { path: '$.body.d' }]],
    ['', []],
  ])('splits %j into text and placeholders', (template, parts) => {
    expect(parseMessageTemplate(template, 'runOnEvent')).toEqual(parts);
  });

  it.each([
    ['<$>', /placeholder <\$>, which selects no field/],
    ['<$.>', /placeholder <\$\.>/],
    ['<$.detail[*]>', /placeholder <\$\.detail\[\*\]>/],
    ['<$.detail["a b"]>', /placeholder <\$\.detail\["a b"\]>/],
    ['a < b', /"<" or ">" outside a placeholder in "a < b"/],
    ['<detail.text>', /"<" or ">" outside a placeholder/],
    ['<$.detail.text', /"<" or ">" outside a placeholder/],
  ])('refuses %j, naming the trigger', (template, error) => {
    expect(() => parseMessageTemplate(template, 'runOnEvent')).toThrow(error);
    expect(() => parseMessageTemplate(template, 'runOnEvent')).toThrow(/^runOnEvent message/);
  });
});

describe('wholeField', () => {
  it('names the path of a message that is one placeholder, and nothing otherwise', () => {
    expect(wholeField([{ path: '$.body' }])).toBe('$.body');
    expect(wholeField([{ text: 'Hi ' }, { path: '$.body' }])).toBeUndefined();
    expect(wholeField([{ text: 'Hi' }])).toBeUndefined();
    expect(wholeField([])).toBeUndefined();
  });
});
