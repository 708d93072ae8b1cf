import * as z from 'zod';
import { contextNoteSchema } from '../context/context-note.js';
import { stepSpendSchema } from '../usage/step-usage.js';

/**
 * What a model step's append notes beside its events (decision 0013): what the step spent, why
 * its `<execute>` body had no positions (A6) when it had none, whether the model returned nothing
 * at all (no thought, prose or `<execute>`), which no event could record, and the size of its
 * request, which calibrates the next step's estimate (decision 0035).
 */
export const stepNoteSchema = stepSpendSchema.extend({
  batchFailure: z.string().optional(),
  empty: z.literal(true).optional(),
  context: contextNoteSchema.optional(),
});

/** A model step's note. */
export type StepNote = z.infer<typeof stepNoteSchema>;
