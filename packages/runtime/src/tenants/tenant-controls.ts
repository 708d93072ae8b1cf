/** A tenant's suspension (decision 0041): when an operator suspended it, and why. */
export interface Suspension {
  /** When it began, in ms since the epoch. */
  since: number;
  reason?: string;
}

/**
 * What a tenant may spend on models per UTC day and month (decision 0043): in US dollars (from the
 * price table), in tokens (input + output, priced or not), or both.
 */
export interface Ceiling {
  usdPerDay?: number;
  usdPerMonth?: number;
  tokensPerDay?: number;
  tokensPerMonth?: number;
}

/** The figures a parsed ceiling names (zod's optional keys may hold `undefined`), as a {@link Ceiling}. */
export function ceilingOf(parsed: { readonly [Figure in keyof Ceiling]?: number | undefined }): Ceiling {
  return Object.fromEntries(Object.entries(parsed).filter(([, figure]) => figure !== undefined));
}

/** What an operator has set for one tenant: its suspension, if it is suspended, and its own ceiling. */
export interface TenantControl {
  suspended?: Suspension;
  /** Replaces the agent's default ceiling for this tenant, where it sets a figure. */
  ceiling?: Ceiling;
}

/** The tag that stands for every tenant: suspending it is the agent-wide switch. */
export const EVERY_TENANT = '*';

/**
 * Operators' controls of tenants, by tenant tag (`tenantTag`, or {@link EVERY_TENANT}): the
 * kill switch. Kept in the event-log table beside the sessions they control.
 */
export interface TenantControls {
  /** The tenant's controls; `{}` for a tenant no operator has touched. */
  get(tag: string): Promise<TenantControl>;
  /** Suspends the tenant (again: the new suspension replaces the old). */
  suspend(tag: string, suspension: Suspension): Promise<void>;
  /** Ends the tenant's suspension, if it has one. */
  resume(tag: string): Promise<void>;
  /** Sets the tenant's own ceiling, or (`undefined`) drops it: the agent's default applies again. */
  setCeiling(tag: string, ceiling: Ceiling | undefined): Promise<void>;
}

/** {@link TenantControls} in process memory. */
export class InMemoryTenantControls implements TenantControls {
  readonly #controls = new Map<string, TenantControl>();

  async get(tag: string): Promise<TenantControl> {
    return structuredClone(this.#controls.get(tag) ?? {});
  }

  async suspend(tag: string, suspension: Suspension): Promise<void> {
    this.#controls.set(tag, { ...this.#controls.get(tag), suspended: structuredClone(suspension) });
  }

  async resume(tag: string): Promise<void> {
    const { suspended: _, ...rest } = this.#controls.get(tag) ?? {};
    this.#controls.set(tag, rest);
  }

  async setCeiling(tag: string, ceiling: Ceiling | undefined): Promise<void> {
    const { ceiling: _, ...rest } = this.#controls.get(tag) ?? {};
    this.#controls.set(tag, ceiling === undefined ? rest : { ...rest, ceiling: structuredClone(ceiling) });
  }
}
