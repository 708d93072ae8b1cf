import { ifBusySchema, turnBodySchema } from '@agentstep/protocol';
import * as z from 'zod';
import { publicSessionIdSchema } from './ids.js';

/** A message as the AI SDK's `UIMessage` has it: its parts are kept as sent. */
const chatMessageSchema = z.looseObject({
  id: z.string().min(1, 'must not be empty'),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(z.looseObject({ type: z.string() })),
});

/** A message of a chat request. */
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/**
 * `POST /chat`'s body as the AI SDK's `DefaultChatTransport` sends it: the chat's `id` (the session
 * id), its `messages`, the `trigger` and `messageId`; a turn's limits and `ifBusy` may come along
 * (the transport's `body` option), other fields are ignored.
 */
export const chatBodySchema = z.looseObject({
  id: publicSessionIdSchema,
  messages: z.array(chatMessageSchema).min(1, 'must hold the message to answer'),
  trigger: z.enum(['submit-message', 'regenerate-message']),
  messageId: z.string().optional(),
  maxSteps: turnBodySchema.shape.maxSteps,
  budget: turnBodySchema.shape.budget,
  toolExecution: turnBodySchema.shape.toolExecution,
  /** While a turn of the chat runs: refuse (the default), queue this message, or interrupt that turn. */
  ifBusy: ifBusySchema.optional(),
});

/** A chat request's body. */
export type ChatBody = z.infer<typeof chatBodySchema>;
