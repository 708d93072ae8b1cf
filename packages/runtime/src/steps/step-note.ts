import * as z from 'zod';
import { stepSpendSchema } from '../usage/step-usage.js';

/**
 * What a model step's append notes beside its events (decision 0013): what the step spent, and
 * why its `<execute>` body had no positions (A6) when it had none.
 */
export const stepNoteSchema = stepSpendSchema.extend({ batchFailure: z.string().optional() });

/** A model step's note. */
export type StepNote = z.infer<typeof stepNoteSchema>;
