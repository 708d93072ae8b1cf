/** The periods a tenant's spend is counted and capped in, in UTC. */
export const SPEND_PERIODS = ['day', 'month'] as const;
/** One of {@link SPEND_PERIODS}. */
export type SpendPeriod = (typeof SPEND_PERIODS)[number];

/** Micro-dollars in a US dollar: spend is counted in them, so sums are exact. */
export const MICROS_PER_USD = 1_000_000;

/**
 * What spend is counted in: micro-dollars (millionths of a US dollar: whole numbers add exactly)
 * and tokens (input + output), each in counters of its own.
 */
export const SPEND_UNITS = ['micros', 'tokens'] as const;
/** One of {@link SPEND_UNITS}. */
export type SpendUnit = (typeof SPEND_UNITS)[number];

/** Spend caps per period, in one unit. */
export type SpendLimits = Partial<Record<SpendPeriod, number>>;

/** A reservation of spend that a model step settles once it knows what it cost. */
export interface Reservation {
  tag: string;
  unit: SpendUnit;
  /** The periods' keys it was counted in (`2026-11-29`, `2026-11`). */
  periods: Record<SpendPeriod, string>;
  amount: number;
}

/**
 * What a tenant has spent in the periods of a time, in one unit (reservations included), and
 * the limits at which a reservation was refused in them: from then on the tenant is at its ceiling
 * for that period, unless the limit is raised past it.
 */
export interface Spent {
  day: number;
  month: number;
  reached: SpendLimits;
}

/** A reservation refused: the period whose limit it would pass, and when that period ends (ms since the epoch). */
export interface Refusal {
  refused: SpendPeriod;
  resetsAt: number;
}

/**
 * Each tenant's spend per UTC day and month (decision 0043), counted where every model step passes:
 * a step reserves what it may cost before it calls the model, atomically and only while no limit
 * would be passed, then settles at what it cost. Concurrent steps of one tenant can pass a limit only
 * by what their reservations under-estimated.
 */
export interface TenantSpend {
  /**
   * Reserves `amount` of `unit` in the periods of `at`, unless that would pass a limit of `limits`
   * (in that unit); a refusal records the limit the period reached (see {@link Spent.reached}).
   */
  reserve(
    tag: string,
    unit: SpendUnit,
    amount: number,
    limits: SpendLimits,
    at: number,
  ): Promise<Reservation | Refusal>;
  /** Replaces a reservation by what the step cost, in its unit (more or less than reserved). */
  settle(reservation: Reservation, amount: number): Promise<void>;
  /** What the tenant has spent in `unit` in the periods of `at`, and the limits they reached. */
  spent(tag: string, unit: SpendUnit, at: number): Promise<Spent>;
}

/** The keys of the UTC day and month of `at`. */
export function periodsOf(at: number): Record<SpendPeriod, string> {
  const day = new Date(at).toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

/** When `period` of `at` ends (the next UTC midnight, or the next month's first), in ms since the epoch. */
export function periodEnd(period: SpendPeriod, at: number): number {
  const date = new Date(at);
  return period === 'day'
    ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
    : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** {@link TenantSpend} in process memory. */
export class InMemoryTenantSpend implements TenantSpend {
  readonly #counted = new Map<string, number>();
  readonly #reached = new Map<string, number>();

  async reserve(
    tag: string,
    unit: SpendUnit,
    amount: number,
    limits: SpendLimits,
    at: number,
  ): Promise<Reservation | Refusal> {
    const periods = periodsOf(at);
    for (const period of SPEND_PERIODS) {
      const limit = limits[period];
      const key = counterKey(tag, unit, periods[period]);
      if (limit !== undefined && this.#of(key) + amount > limit) {
        this.#reached.set(key, limit);
        return { refused: period, resetsAt: periodEnd(period, at) };
      }
    }
    for (const period of SPEND_PERIODS) this.#add(counterKey(tag, unit, periods[period]), amount);
    return { tag, unit, periods, amount };
  }

  async settle({ tag, unit, periods, amount }: Reservation, cost: number): Promise<void> {
    for (const period of SPEND_PERIODS) this.#add(counterKey(tag, unit, periods[period]), cost - amount);
  }

  async spent(tag: string, unit: SpendUnit, at: number): Promise<Spent> {
    const periods = periodsOf(at);
    const reached: SpendLimits = {};
    for (const period of SPEND_PERIODS) {
      const limit = this.#reached.get(counterKey(tag, unit, periods[period]));
      if (limit !== undefined) reached[period] = limit;
    }
    const of = (period: SpendPeriod) => this.#of(counterKey(tag, unit, periods[period]));
    return { day: of('day'), month: of('month'), reached };
  }

  #of(key: string): number {
    return this.#counted.get(key) ?? 0;
  }

  #add(key: string, amount: number): void {
    this.#counted.set(key, this.#of(key) + amount);
  }
}

function counterKey(tag: string, unit: SpendUnit, period: string): string {
  return `${tag}/${unit}/${period}`;
}
