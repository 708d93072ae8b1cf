import { describe, expect, it } from 'vitest';
import { renderVariables } from './variables.js';

describe('renderVariables', () => {
  it.each([
    ['nothing gives no variables', {}, {}],
    ['the inputs', { inputs: { a: '1', b: '2' } }, { a: '1', b: '2' }],
    [
      'E5: a field overrides an input of the same name',
      { inputs: { a: 'input', b: 'kept' }, prior: [{ id: 'g', output: 'o', fields: { a: 'field' } }] },
      { a: 'field', b: 'kept' },
    ],
    [
      "E5: a later completion's field overrides an earlier one",
      {
        prior: [
          { id: 'g', output: 'o', fields: { a: '1', b: 'B' } },
          { id: 'h', output: 'p' },
          { id: 'g', output: 'q', fields: { a: '2' } },
        ],
      },
      { a: '2', b: 'B' },
    ],
  ])('%s', (_rule, input, variables) => {
    expect(renderVariables(input)).toEqual(variables);
  });

  it('keeps a field named "__proto__" as its own variable', () => {
    const variables = renderVariables({ inputs: JSON.parse('{"__proto__": "p"}') });
    expect(Object.hasOwn(variables, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(variables)).toBe(Object.prototype);
  });
});
