import * as z from 'zod';

const tokens = z.number().int().nonnegative();

/**
 * What a model step notes of its request's size, so a later step can calibrate its estimates: the
 * estimate of what it sent (`estimateRequestTokens`), and the input tokens the provider reported
 * for that first request, when it did.
 */
export const contextNoteSchema = z.object({ estimatedTokens: tokens, inputTokens: tokens.optional() });

/** A step's note of its request's size. */
export type ContextNote = z.infer<typeof contextNoteSchema>;
