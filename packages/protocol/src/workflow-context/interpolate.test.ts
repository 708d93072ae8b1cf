import { describe, expect, it } from 'vitest';
import { interpolate } from './interpolate.js';

describe('interpolate', () => {
  it.each([
    ['E4: replaces a known name', 'About $topic.', { topic: 'tea' }, 'About tea.'],
    [
      'E4: the longest known name wins',
      '$topic_detail and $topic',
      { topic: 'tea', topic_detail: 'green tea' },
      'green tea and tea',
    ],
    [
      'E4: a shorter known name matches the start of a longer word',
      '$topic_detail',
      { topic: 'tea' },
      'tea_detail',
    ],
    ['E4: an unknown name stays literal', 'Ask $unknown.', { topic: 'tea' }, 'Ask $unknown.'],
    ['E4: $5 stays literal', 'Costs $5.', { topic: 'tea' }, 'Costs $5.'],
    ['E4: a $ at the end stays literal', 'Pay in $', { topic: 'tea' }, 'Pay in $'],
    ['E4: $$ before a name keeps the first $', '$$topic', { topic: 'tea' }, '$tea'],
    ['E4: {x} and {{x}} are literal', '{topic} {{topic}}', { topic: 'tea' }, '{topic} {{topic}}'],
    ['E4: values are not re-scanned', '$a then $b', { a: '$b', b: 'B' }, '$b then B'],
    ['E4: a value may hold a $ of its own', '$price', { price: '$5 and $' }, '$5 and $'],
    ['E4: an empty value removes the name', '[$x]', { x: '' }, '[]'],
    ['E4: names are case-sensitive', '$Topic', { topic: 'tea' }, '$Topic'],
    ['E4: "__proto__" is a name like any other', '$__proto__', JSON.parse('{"__proto__": "p"}'), 'p'],
    ['E4: with no variables the text stays', 'a $b', {}, 'a $b'],
  ])('%s', (_rule, text, variables, expected) => {
    expect(interpolate(text, variables)).toBe(expected);
  });
});
