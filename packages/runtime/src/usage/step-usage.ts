import * as z from 'zod';
import { modelUsageSchema } from '../model/model-usage.js';

/**
 * What one model step used and cost, as the note of the step's append records it (decision 0013):
 * written once, with the step's events, whatever number of times the step was delivered.
 */
export const stepSpendSchema = z.object({
  /** The model's id, as prices name it. */
  model: z.string(),
  /** The model profile the turn asked for (a workflow agent's `REQUIRES`), when it named one. */
  profile: z.string().optional(),
  /** When the step's output was complete, in milliseconds since the epoch. */
  at: z.number().nonnegative(),
  /** From the request to the end of the step's output. */
  latencyMs: z.number().int().nonnegative(),
  usage: modelUsageSchema,
  /**
   * The provider reported no usage for the step (its counts are then 0, not what it billed):
   * metrics say `usage: "unknown"`, and token and cost budgets count it as spending them.
   */
  usageUnknown: z.literal(true).optional(),
  /** Estimated from the price table when the step ran; absent when it had no price for the model. */
  costUsd: z.number().nonnegative().optional(),
  /** Set on the requests a compaction made to summarize the context before the step (decision 0035). */
  purpose: z.literal('compaction').optional(),
});

/** One step's spend. */
export type StepSpend = z.infer<typeof stepSpendSchema>;

/**
 * One entry of the usage ledger: a model step's spend, or a compaction's (`purpose`), with its
 * session and step (batch: a compaction's is the step it came before).
 */
export const stepUsageSchema = stepSpendSchema.extend({
  session: z.string().min(1),
  /** The model step (batch) the request belonged to. */
  batch: z.string().min(1),
});

/** One entry of the usage ledger. */
export type StepUsage = z.infer<typeof stepUsageSchema>;
