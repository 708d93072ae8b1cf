import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { isSessionId, SESSION_ID_RULE } from '@agentstep/protocol';
import type { Context } from 'hono';
import * as z from 'zod';
import { ApiError } from './api-error.js';
import { type ClientDecision, promptOf } from './client-turns.js';
import { MAX_PUBLIC_SESSION_LENGTH } from './ids.js';
import { MAX_CONVERSATION_BODY_BYTES, readBody } from './read-body.js';

/**
 * What a resume entry's `payload` may say of the call it answers (all optional): `approved: false`
 * denies it, `args` are the arguments it runs with instead of the model's, `reason` is why.
 */
export const resumePayloadSchema = z
  .object({
    approved: z.boolean().optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    reason: z.string().max(4_000).optional(),
  })
  .strict()
  .refine((payload) => payload.approved !== false || payload.args === undefined, {
    message: 'only an approval can edit the arguments',
    path: ['args'],
  });

/** AG-UI's `RunAgentInput`, its `threadId` a session id the caller's tenant may hold. */
const runInputSchema = RunAgentInputSchema.extend({
  threadId: z
    .string()
    .max(MAX_PUBLIC_SESSION_LENGTH)
    .refine(isSessionId, { message: `is not a session id: ${SESSION_ID_RULE}` }),
  runId: z.string().min(1),
});

/** A run's input as read. */
type RunAgentInput = z.infer<typeof runInputSchema>;

/** What a run asks for: its thread (session) and run, its newest user message, and its decisions. */
export interface RunInput {
  session: string;
  runId: string;
  /** The newest `user` message's text; undefined when the run resumes. */
  message: string | undefined;
  resume: ClientDecision[];
}

/**
 * The request's `RunAgentInput`, checked (400 naming the fields): a run with `resume` entries
 * decides the calls they answer (`resolved` approves unless its payload says `approved: false`;
 * `cancelled` denies); any other run needs a `user` message with text, its newest one.
 */
export async function readRunInput(c: Context): Promise<RunInput> {
  const input = await readBody(c, runInputSchema, { maxBytes: MAX_CONVERSATION_BODY_BYTES });
  const resume = (input.resume ?? []).map((entry, index) => decisionOf(entry, index));
  const base = { session: input.threadId, runId: input.runId, resume };
  if (resume.length > 0) return { ...base, message: undefined };
  return { ...base, message: newestUserText(input.messages) };
}

function decisionOf(
  { interruptId, status, payload }: { interruptId: string; status: string; payload?: unknown },
  index: number,
): ClientDecision {
  if (status === 'cancelled')
    return { approval: interruptId, body: { decision: 'deny', reason: 'cancelled' } };
  const parsed = resumePayloadSchema.safeParse(payload ?? {});
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({
      path: ['resume', index, 'payload', ...issue.path].join('.'),
      message: issue.message,
    }));
    throw new ApiError(
      400,
      'ValidationError',
      'A resume payload does not match what this route takes.',
      fields,
    );
  }
  const { approved, args, reason } = parsed.data;
  const said = reason === undefined ? {} : { reason };
  if (approved === false) return { approval: interruptId, body: { decision: 'deny', ...said } };
  return {
    approval: interruptId,
    body: { decision: 'approve', ...said, ...(args === undefined ? {} : { args }) },
  };
}

function newestUserText(messages: RunAgentInput['messages']): string {
  const newest = messages.findLast((message) => message.role === 'user');
  const content = newest?.role === 'user' ? newest.content : undefined;
  const text =
    typeof content === 'string'
      ? content
      : (content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return promptOf(text, 'messages');
}
