import { type Ceiling, ceilingOf } from '@agentstep/runtime';
import { UsageError } from '../usage-error.js';

/**
 * Every tenant's ceiling from `--tenant-ceiling USD_PER_DAY[,USD_PER_MONTH]` (positive amounts in
 * US dollars: `0.05`, `0.05,1`) and `--tenant-token-ceiling TOKENS_PER_DAY[,TOKENS_PER_MONTH]`
 * (positive whole numbers: `100000`, `100000,2000000`); neither given, none.
 */
export function tenantCeilingOf(
  usd: string | undefined,
  tokens: string | undefined,
): { tenantCeiling?: Ceiling } {
  const [usdPerDay, usdPerMonth] = figuresOf(
    '--tenant-ceiling',
    usd,
    /^\d+(\.\d+)?$/,
    'positive amounts in US dollars (0.05 or 0.05,1)',
  );
  const [tokensPerDay, tokensPerMonth] = figuresOf(
    '--tenant-token-ceiling',
    tokens,
    /^\d+$/,
    'positive whole numbers of tokens (100000 or 100000,2000000)',
  );
  const ceiling = ceilingOf({ usdPerDay, usdPerMonth, tokensPerDay, tokensPerMonth });
  return Object.keys(ceiling).length === 0 ? {} : { tenantCeiling: ceiling };
}

/** `DAY[,MONTH]` of `flag` as numbers, each matching `pattern` and positive. */
function figuresOf(
  flag: string,
  text: string | undefined,
  pattern: RegExp,
  what: string,
): Array<number | undefined> {
  if (text === undefined) return [];
  const figures = text.split(',').map((part) => (pattern.test(part.trim()) ? Number(part) : Number.NaN));
  if (figures.length > 2 || figures.some((figure) => !(figure > 0)))
    throw new UsageError(`${flag} takes DAY[,MONTH], ${what}; received "${text}".`);
  return figures;
}
