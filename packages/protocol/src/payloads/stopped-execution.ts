import * as z from 'zod';

/** How an execution of the loop ended without ending its turn: the statuses EventBridge reports. */
export const STOPPED_EXECUTION_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/**
 * The `detail` of a Step Functions "Execution Status Change" event for an execution that stopped:
 * its name and status, the error and cause when it failed, and its input (JSON), which names the
 * turn to close (`session` and `turn`), or asked for one (a turn request, whose ids derive from it
 * and the execution's name).
 */
export const stoppedExecutionSchema = z.object({
  name: z.string().min(1),
  status: z.enum(STOPPED_EXECUTION_STATUSES),
  error: z.string().nullish(),
  cause: z.string().nullish(),
  input: z.string().transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'the execution input is not JSON' });
      return z.NEVER;
    }
  }),
});

/** A stopped execution, as EventBridge reports it. */
export type StoppedExecution = z.infer<typeof stoppedExecutionSchema>;
