import * as z from 'zod';
import type { Provider } from './provider.js';

/** What a model provider must be (see {@link Provider}), for providers the runtime did not write. */
export const providerSchema = z.object({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, 'must be lower-case letters, digits and "-", from a letter (no ":")'),
  description: z.string().min(1),
  keyVariable: z.string().min(1).optional(),
  model: z.custom<Provider['model']>((value) => typeof value === 'function', 'must be a function'),
});
