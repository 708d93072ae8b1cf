import type { WireEventOf } from '@agentstep/protocol';
import type { StepUsage } from './step-usage.js';

/** What a session has spent so far. */
export interface SessionSpend {
  inputTokens: number;
  outputTokens: number;
  /** Estimated; entries without a price add nothing. */
  costUsd: number;
  /** Whether some entry had no price, so `costUsd` is a lower bound. */
  unpriced: boolean;
  /** Steps whose provider reported no usage: the token counts and cost leave them out. */
  unknownSteps: number;
}

/** The sum of a session's ledger entries. */
export function sessionSpend(entries: readonly StepUsage[]): SessionSpend {
  return entries.reduce(addEntry, {
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    unpriced: false,
    unknownSteps: 0,
  });
}

function addEntry(spend: SessionSpend, entry: StepUsage): SessionSpend {
  return {
    inputTokens: spend.inputTokens + entry.usage.inputTokens,
    outputTokens: spend.outputTokens + entry.usage.outputTokens,
    costUsd: spend.costUsd + (entry.costUsd ?? 0),
    unpriced: spend.unpriced || entry.costUsd === undefined,
    unknownSteps: spend.unknownSteps + (entry.usageUnknown ? 1 : 0),
  };
}

/**
 * The `metric` event of each ledger entry, in the spec's shape (`step` and `total` tokens) with
 * the model, latency, cache use and cost in `payload`. `total` counts the session up to that entry.
 */
export function metricEvents(entries: readonly StepUsage[]): Array<WireEventOf<'metric'>> {
  let total = sessionSpend([]);
  return entries.map((entry) => {
    total = addEntry(total, entry);
    return {
      type: 'metric',
      step: { input: entry.usage.inputTokens, output: entry.usage.outputTokens },
      total: { input: total.inputTokens, output: total.outputTokens },
      timestamp: entry.at / 1000,
      payload: {
        model: entry.model,
        ...(entry.profile === undefined ? {} : { profile: entry.profile }),
        batch: entry.batch,
        ...(entry.purpose === undefined ? {} : { purpose: entry.purpose }),
        latency_ms: entry.latencyMs,
        ...(entry.usageUnknown ? { usage: 'unknown' as const } : {}),
        cache_read: entry.usage.cacheReadTokens,
        cache_write: entry.usage.cacheWriteTokens,
        ...(entry.costUsd === undefined ? {} : { cost_usd: entry.costUsd }),
        ...(total.unpriced ? {} : { total_cost_usd: total.costUsd }),
      },
    };
  });
}
