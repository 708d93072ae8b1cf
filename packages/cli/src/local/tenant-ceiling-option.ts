import type { Ceiling } from '@agentstep/runtime';
import { UsageError } from '../usage-error.js';

/** `--tenant-ceiling 0.05` (a day) or `0.05,1` (a day, a month): positive amounts in US dollars. */
export function tenantCeilingOf(text: string | undefined): { tenantCeiling?: Ceiling } {
  if (text === undefined) return {};
  const amounts = text
    .split(',')
    .map((part) => (/^\d+(\.\d+)?$/.test(part.trim()) ? Number(part) : Number.NaN));
  const [usdPerDay, usdPerMonth] = amounts;
  if (amounts.length > 2 || amounts.some((usd) => !(usd > 0)))
    throw new UsageError(
      `--tenant-ceiling takes USD_PER_DAY[,USD_PER_MONTH], positive amounts in US dollars (0.05 or 0.05,1); received "${text}".`,
    );
  return { tenantCeiling: { usdPerDay, ...(usdPerMonth === undefined ? {} : { usdPerMonth }) } as Ceiling };
}
