import * as z from 'zod';

/** A call as the runaway guard quotes it: its tool, its arguments as canonical JSON, how often it was made. */
export const countedCallSchema = z.object({ name: z.string(), args: z.string(), count: z.number() });

/**
 * What the turn running at a compaction had done by then, as far as the next model steps need it
 * (decision 0039): what a process that reads the log only from the context's start no longer finds
 * in it. Written by the compaction, so it is as true as the log it was counted from.
 */
export const turnCarrySchema = z.object({
  turn: z.string(),
  /** The model profile and the instructions of the session's latest user message then (the turn's own). */
  user: z.object({ model: z.string().optional(), instructions: z.string().optional() }).optional(),
  /** The turn's calls so far, by `callKey` (a hash of tool and canonical arguments): how often each was made. */
  calls: z.record(z.string(), z.number()),
  /** The turn's most repeated call so far. */
  top: countedCallSchema.optional(),
  /** The highest step of the turn whose batch had a successful call. */
  lastProgressed: z.number().optional(),
  /** How long the turn's calls had waited for people, in ms (`approvalWaitMs`). */
  approvalWaitMs: z.number(),
});

/** What the turn running at a compaction carries past it. */
export type TurnCarry = z.infer<typeof turnCarrySchema>;

/**
 * Where a model step's context starts since the session's latest compaction (decision 0039): its
 * first event after the cut (`from`), and what the turn then running carries from the events up to
 * `through` (the log's end when it compacted). A step needs no event before `from`: its context
 * starts with the summary, and the turn's counts go on from `carry`.
 */
export const contextStartSchema = z.object({
  from: z.number().int().positive(),
  through: z.number().int().nonnegative(),
  carry: turnCarrySchema.optional(),
});

/** Where a model step's context starts, and what its turn carries from before. */
export type ContextStart = z.infer<typeof contextStartSchema>;

/** The carry of `start` that applies to `turn`: only the turn that compacted carries anything. */
export function carryOf(start: ContextStart | undefined, turn: string): TurnCarry | undefined {
  return start?.carry?.turn === turn ? start.carry : undefined;
}
