import * as z from 'zod';

/** One call's outcome, exactly the spec's `<results>` item shape (B5). */
export const toolOutcomeSchema = z.discriminatedUnion('status', [
  z.object({ tool: z.string(), status: z.literal('success'), content: z.unknown() }),
  z.object({ tool: z.string(), status: z.literal('failure'), content: z.string() }),
]);

/** A `<results>` item: a tool's output, or the error message of a failed call. */
export type ToolOutcome = z.infer<typeof toolOutcomeSchema>;

/** The `tool` of the single failure recorded for an `<execute>` body that has no positions (A6). */
export const BATCH_TOOL_NAME = 'execute';
