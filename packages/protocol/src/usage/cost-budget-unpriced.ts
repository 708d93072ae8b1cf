import type { Budget } from '../payloads/step-payloads.js';
import { priceOf } from './price-table.js';
import type { PriceTable } from './price-table-schema.js';

/**
 * Whether a budget caps cost for a model the price table has no price for: such a budget could
 * never be spent, so the CLI and the construct refuse it before anything runs.
 */
export function costBudgetUnpriced(budget: Budget, prices: PriceTable, modelId: string): boolean {
  return budget.maxCostUsd !== undefined && priceOf(prices, modelId) === undefined;
}
