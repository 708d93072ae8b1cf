import type { Clock } from '../clock/clock.js';
import type { Ceiling, Suspension, TenantControl, TenantControls } from './tenant-controls.js';

/** How long a model step trusts what it read of a tenant's controls: a suspension takes hold within it. */
export const CONTROLS_FRESH_MS = 1_000;

/**
 * {@link TenantControls} that answers `get` from what it read in the last `freshMs` (per tenant),
 * so the model steps of a warm process read each tenant's controls at most once a second; writes go
 * through and forget what was read.
 */
export class RecentTenantControls implements TenantControls {
  readonly #inner: TenantControls;
  readonly #clock: Clock;
  readonly #freshMs: number;
  readonly #read = new Map<string, { at: number; control: Promise<TenantControl> }>();

  constructor(inner: TenantControls, clock: Clock, freshMs = CONTROLS_FRESH_MS) {
    this.#inner = inner;
    this.#clock = clock;
    this.#freshMs = freshMs;
  }

  get(tag: string): Promise<TenantControl> {
    const now = this.#clock.now();
    const read = this.#read.get(tag);
    if (read !== undefined && now - read.at < this.#freshMs) return read.control;
    const control = this.#inner.get(tag);
    this.#read.set(tag, { at: now, control });
    control.catch(() => this.#read.delete(tag));
    return control;
  }

  suspend(tag: string, suspension: Suspension): Promise<void> {
    this.#read.delete(tag);
    return this.#inner.suspend(tag, suspension);
  }

  resume(tag: string): Promise<void> {
    this.#read.delete(tag);
    return this.#inner.resume(tag);
  }

  setCeiling(tag: string, ceiling: Ceiling | undefined): Promise<void> {
    this.#read.delete(tag);
    return this.#inner.setCeiling(tag, ceiling);
  }
}
