import { DEFAULT_PRICES, type PriceTable, priceOf } from '@agentstep/protocol';
import type { Model } from '../model/model.js';
import type { ModelUsage } from '../model/model-usage.js';
import { costOf } from './cost-of.js';
import type { StepSpend } from './step-usage.js';

/** When one step's model request started and ended, and what it used. */
export interface StepRun {
  startedAt: number;
  endedAt: number;
  usage: ModelUsage;
  /** The provider reported no usage: the spend is unknown, and has no cost estimate. */
  usageUnknown?: true | undefined;
}

/** What a step spent, with its cost estimate at today's prices, as the step's note records it. */
export function stepSpend(run: StepRun, deps: { model: Model; prices?: PriceTable | undefined }): StepSpend {
  const price = priceOf(deps.prices ?? DEFAULT_PRICES, deps.model.id);
  return {
    model: deps.model.id,
    at: run.endedAt,
    latencyMs: Math.max(0, Math.round(run.endedAt - run.startedAt)),
    usage: run.usage,
    ...(run.usageUnknown ? { usageUnknown: true as const } : {}),
    ...(price && !run.usageUnknown ? { costUsd: costOf(price, run.usage) } : {}),
  };
}
