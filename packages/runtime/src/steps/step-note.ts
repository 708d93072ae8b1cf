import * as z from 'zod';
import { stepSpendSchema } from '../usage/step-usage.js';

/**
 * What a model step's append notes beside its events (decision 0013): what the step spent, why
 * its `<execute>` body had no positions (A6) when it had none, and whether the model returned
 * nothing at all (no thought, prose or `<execute>`), which no event could record.
 */
export const stepNoteSchema = stepSpendSchema.extend({
  batchFailure: z.string().optional(),
  empty: z.literal(true).optional(),
});

/** A model step's note. */
export type StepNote = z.infer<typeof stepNoteSchema>;
