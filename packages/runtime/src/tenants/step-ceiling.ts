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
  SPEND_UNITS,
  type SpendLimits,
  type SpendPeriod,
  type SpendUnit,
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

/** A tenant's limits in each unit: the figures of its own ceiling over the agent's default. */
async function spendLimits(
  tag: string,
  deps: Pick<CeilingDeps, 'tenantControls' | 'tenantCeiling'>,
): Promise<UnitLimits> {
  return tenantLimits((await deps.tenantControls.get(tag)).ceiling, deps.tenantCeiling);
}

/** A tenant's limits in each unit: the figures of its own ceiling (`own`) over the agent's default. */
export function tenantLimits(own: Ceiling | undefined, tenantCeiling: Ceiling | undefined): UnitLimits {
  return limitsOfCeiling({ ...tenantCeiling, ...own });
}

/** Limits in each unit {@link TenantSpend} counts. */
export type UnitLimits = Record<SpendUnit, SpendLimits>;

/** A ceiling's figures as {@link TenantSpend} counts them: micro-dollars, and tokens. */
function limitsOfCeiling(ceiling: Ceiling): UnitLimits {
  const micros = (usd: number | undefined) =>
    usd === undefined ? undefined : Math.round(usd * MICROS_PER_USD);
  return {
    micros: figures(micros(ceiling.usdPerDay), micros(ceiling.usdPerMonth)),
    tokens: figures(ceiling.tokensPerDay, ceiling.tokensPerMonth),
  };
}

function figures(day: number | undefined, month: number | undefined): SpendLimits {
  return { ...(day === undefined ? {} : { day }), ...(month === undefined ? {} : { month }) };
}

/** What a model step reserved, one reservation per unit its tenant is capped in. */
export type StepReservation = readonly Reservation[];

/**
 * Reserves what model step of `session` may cost before the model is called: its input as estimated
 * and {@link RESERVED_OUTPUT_TOKENS} of output, in tokens and (for a model with a price) at its
 * price, in the tenant's day and month, atomically per unit and only within its limits. `undefined`
 * when nothing caps it (a session of no tenant, no ceiling, only a dollar ceiling and a model
 * without a price); `{ limit }`, the turn's end, when a ceiling is reached (what the other unit
 * reserved is given back).
 */
export async function reserveStep(
  session: string,
  request: { model: Model; inputTokens: number },
  deps: CeilingDeps,
): Promise<StepReservation | { limit: string } | undefined> {
  const tag = tenantTagOf(session);
  if (tag === undefined) return undefined;
  const amounts = stepAmounts(request, deps);
  const limits = await spendLimits(tag, deps);
  const capped = SPEND_UNITS.filter(
    (unit) => amounts[unit] !== undefined && Object.keys(limits[unit]).length > 0,
  );
  const reserved: Reservation[] = [];
  for (const unit of capped) {
    const tried = await deps.tenantSpend.reserve(
      tag,
      unit,
      amounts[unit] ?? 0,
      limits[unit],
      deps.clock.now(),
    );
    if ('refused' in tried) {
      await Promise.all(reserved.map((reservation) => deps.tenantSpend.settle(reservation, 0)));
      const reached = ceilingReached(unit, tried.refused, limits[unit], tried.resetsAt);
      return { limit: `TenantCeilingReached: ${reached}` };
    }
    reserved.push(tried);
  }
  return reserved.length === 0 ? undefined : reserved;
}

/** What a step's reservation counts in each unit: `micros` only for a model with a price. */
function stepAmounts(
  request: { model: Model; inputTokens: number },
  deps: Pick<CeilingDeps, 'prices'>,
): Partial<Record<SpendUnit, number>> {
  const usage = {
    inputTokens: request.inputTokens,
    outputTokens: RESERVED_OUTPUT_TOKENS,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
  const price = priceOf(deps.prices ?? DEFAULT_PRICES, request.model.id);
  return {
    tokens: usage.inputTokens + usage.outputTokens,
    ...(price === undefined ? {} : { micros: Math.ceil(costOf(price, usage) * MICROS_PER_USD) }),
  };
}

/** What a model step used: its cost (`undefined`: unknown, so nothing is kept) and its tokens. */
export interface StepUse {
  costUsd: number | undefined;
  /** Input + output tokens. */
  tokens: number;
}

/** Settles a step's reservations at what it used, each in its unit. */
export async function settleStep(
  reservation: StepReservation | undefined,
  used: StepUse,
  deps: Pick<CeilingDeps, 'tenantSpend'>,
): Promise<void> {
  const amounts: Record<SpendUnit, number> = {
    micros: Math.round((used.costUsd ?? 0) * MICROS_PER_USD),
    tokens: used.tokens,
  };
  await Promise.all((reservation ?? []).map((each) => deps.tenantSpend.settle(each, amounts[each.unit])));
}

/**
 * Why a tenant's turns stop or do not start (`TenantCeilingReached`): which ceiling, and when its
 * period ends.
 */
export function ceilingReached(
  unit: SpendUnit,
  period: SpendPeriod,
  limits: SpendLimits,
  resetsAt: number,
): string {
  const limit = limits[period] ?? 0;
  const figure = unit === 'micros' ? `$${limit / MICROS_PER_USD}` : `${limit} tokens`;
  return `the tenant's ceiling of ${figure} a ${period} is reached; it resets at ${new Date(resetsAt).toISOString()}. An operator may raise it (agentstep tenants set-ceiling).`;
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
