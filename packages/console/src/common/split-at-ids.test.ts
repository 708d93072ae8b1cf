import { describe, expect, it } from 'vitest';
import { splitAtIds } from './split-at-ids.js';

describe('splitAtIds', () => {
  it('cuts the text at each id it names, a full stop after an id left as text', () => {
    expect(splitAtIds('review (check) ended failed: see session wf-1.3.', ['wf-1.3', 'wf-1.2'])).toEqual([
      { text: 'review (check) ended failed: see session ', isId: false },
      { text: 'wf-1.3', isId: true },
      { text: '.', isId: false },
    ]);
  });

  it('finds an id only whole, never inside a longer one', () => {
    expect(splitAtIds('wf-1.10 and xwf-1.1 and wf-1.1-b', ['wf-1.1'])).toEqual([
      { text: 'wf-1.10 and xwf-1.1 and wf-1.1-b', isId: false },
    ]);
    expect(splitAtIds('wf-1.10 then wf-1.1', ['wf-1.1', 'wf-1.10'])).toEqual([
      { text: 'wf-1.10', isId: true },
      { text: ' then ', isId: false },
      { text: 'wf-1.1', isId: true },
    ]);
  });

  it('takes the ids literally and leaves text with none as it is', () => {
    expect(splitAtIds('a+b and ab', ['a+b'])).toEqual([
      { text: 'a+b', isId: true },
      { text: ' and ab', isId: false },
    ]);
    expect(splitAtIds('nothing here', [])).toEqual([{ text: 'nothing here', isId: false }]);
  });
});
