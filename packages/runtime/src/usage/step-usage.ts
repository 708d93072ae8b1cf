import * as z from 'zod';
import { modelUsageSchema } from '../model/model-usage.js';

/**
 * What one model request of a step used and cost, as the usage ledger keeps it. A step re-run
 * after a crash records its second request too: the ledger counts what was spent, not what was
 * kept.
 */
export const stepUsageSchema = z.object({
  session: z.string().min(1),
  /** The model step (batch) the request belonged to. */
  batch: z.string().min(1),
  /** The model's id, as prices name it. */
  model: z.string(),
  /** When the step's output was complete, in milliseconds since the epoch. */
  at: z.number().nonnegative(),
  /** From the request to the end of the step's output. */
  latencyMs: z.number().int().nonnegative(),
  usage: modelUsageSchema,
  /** Estimated from the price table when the step ran; absent when it had no price for the model. */
  costUsd: z.number().nonnegative().optional(),
});

/** One entry of the usage ledger. */
export type StepUsage = z.infer<typeof stepUsageSchema>;
