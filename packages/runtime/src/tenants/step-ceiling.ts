import { DEFAULT_PRICES, type PriceTable, priceOf } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { Model } from '../model/model.js';
import { tenantTagOf } from '../requests/stored-session.js';
import { costOf } from '../usage/cost-of.js';
import type { Ceiling, TenantControls } from './tenant-controls.js';
import {
  MICROS_PER_USD,
  periodEnd,
  type Reservation,
  SPEND_PERIODS,
  type SpendLimits,
  type SpendPeriod,
  type Spent,
  type TenantSpend,
} from './tenant-spend.js';

/**
 * Output tokens a step's reservation counts on, whatever the model then writes (decision 0043): the
 * step settles at what it used, so a step that writes more passes the ceiling by the difference.
 */
export const RESERVED_OUTPUT_TOKENS = 1_024;

/** What keeps each tenant within its spend ceiling. */
export interface CeilingDeps {
  tenantSpend: TenantSpend;
  tenantControls: TenantControls;
  /** Every tenant's ceiling, unless an operator set the tenant one of its own. @default none */
  tenantCeiling?: Ceiling;
  clock: Clock;
  prices?: PriceTable;
}

/** A tenant's limits in micro-dollars: the figures of its own ceiling over the agent's default. */
export async function spendLimits(
  tag: string,
  deps: Pick<CeilingDeps, 'tenantControls' | 'tenantCeiling'>,
): Promise<SpendLimits> {
  const own = (await deps.tenantControls.get(tag)).ceiling;
  return limitsOfCeiling({ ...deps.tenantCeiling, ...own });
}

/** A ceiling's figures in micro-dollars, as {@link TenantSpend} keeps them. */
export function limitsOfCeiling(ceiling: Ceiling): SpendLimits {
  const micros = (usd: number) => Math.round(usd * MICROS_PER_USD);
  return {
    ...(ceiling.usdPerDay === undefined ? {} : { day: micros(ceiling.usdPerDay) }),
    ...(ceiling.usdPerMonth === undefined ? {} : { month: micros(ceiling.usdPerMonth) }),
  };
}

/**
 * Reserves what model step of `session` may cost before the model is called: its input as estimated
 * and {@link RESERVED_OUTPUT_TOKENS} of output at the model's price, in the tenant's day and month,
 * atomically and only within its limits. `undefined` when nothing caps it (a session of no tenant, no
 * ceiling, a model without a price); `{ limit }`, the turn's end, when the ceiling is reached.
 */
export async function reserveStep(
  session: string,
  request: { model: Model; inputTokens: number },
  deps: CeilingDeps,
): Promise<Reservation | { limit: string } | undefined> {
  const tag = tenantTagOf(session);
  const price = priceOf(deps.prices ?? DEFAULT_PRICES, request.model.id);
  if (tag === undefined || price === undefined) return undefined;
  const limits = await spendLimits(tag, deps);
  if (Object.keys(limits).length === 0) return undefined;
  const usage = {
    inputTokens: request.inputTokens,
    outputTokens: RESERVED_OUTPUT_TOKENS,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
  const micros = Math.ceil(costOf(price, usage) * MICROS_PER_USD);
  const reserved = await deps.tenantSpend.reserve(tag, micros, limits, deps.clock.now());
  return 'refused' in reserved
    ? { limit: `TenantCeilingReached: ${ceilingReached(reserved.refused, limits, reserved.resetsAt)}` }
    : reserved;
}

/** Settles a step's reservation at what it cost (`undefined`: unknown, so nothing is kept). */
export async function settleStep(
  reservation: Reservation | undefined,
  costUsd: number | undefined,
  deps: Pick<CeilingDeps, 'tenantSpend'>,
): Promise<void> {
  if (reservation === undefined) return;
  await deps.tenantSpend.settle(reservation, Math.round((costUsd ?? 0) * MICROS_PER_USD));
}

/** Why a tenant's turns stop or do not start (`TenantCeilingReached`): which ceiling, and when its period ends. */
export function ceilingReached(period: SpendPeriod, limits: SpendLimits, resetsAt: number): string {
  const usd = (limits[period] ?? 0) / MICROS_PER_USD;
  return `the tenant's ceiling of $${usd} a ${period} is reached; it resets at ${new Date(resetsAt).toISOString()}. An operator may raise it (agentstep tenants set-ceiling).`;
}

/**
 * The first period whose limit the tenant has reached (spent it, or had a step refused at it or a
 * lower one), and when it ends; `undefined` while within them.
 */
export function reachedPeriod(
  spent: Spent,
  limits: SpendLimits,
  at: number,
): { period: SpendPeriod; resetsAt: number } | undefined {
  const period = SPEND_PERIODS.find((each) => {
    const limit = limits[each];
    return limit !== undefined && (spent[each] >= limit || (spent.reached[each] ?? -1) >= limit);
  });
  return period === undefined ? undefined : { period, resetsAt: periodEnd(period, at) };
}
