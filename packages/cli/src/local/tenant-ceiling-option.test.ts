import { describe, expect, it } from 'vitest';
import { tenantCeilingOf } from './tenant-ceiling-option.js';

describe('--tenant-ceiling and --tenant-token-ceiling', () => {
  it('make one ceiling of what they give, and none of nothing', () => {
    expect(tenantCeilingOf('0.05,1', '100000')).toEqual({
      tenantCeiling: { usdPerDay: 0.05, usdPerMonth: 1, tokensPerDay: 100_000 },
    });
    expect(tenantCeilingOf(undefined, '1000,20000')).toEqual({
      tenantCeiling: { tokensPerDay: 1_000, tokensPerMonth: 20_000 },
    });
    expect(tenantCeilingOf(undefined, undefined)).toEqual({});
  });

  it.each([
    ['0', undefined, '--tenant-ceiling takes DAY[,MONTH], positive amounts in US dollars'],
    ['1,2,3', undefined, '--tenant-ceiling'],
    [undefined, '1.5', '--tenant-token-ceiling takes DAY[,MONTH], positive whole numbers of tokens'],
    [undefined, 'many', '--tenant-token-ceiling'],
  ])('refuses %s / %s, saying what each takes', (usd, tokens, message) => {
    expect(() => tenantCeilingOf(usd, tokens)).toThrow(message);
  });
});
