import type * as z from 'zod';
import { eventBridgeEventSchema } from './event-bridge-event-schema.js';
import { type HandlerDeps, type StepHandler, stepHandler } from './step-handler.js';

/**
 * A Lambda handler for an EventBridge rule's target around exactly one use case: the event (the
 * fields of Powertools' EventBridge envelope) and its `detail` (with `schema`) are validated before
 * the use case runs, which is given the `detail`.
 */
export function eventBridgeHandler<Schema extends z.ZodType, Deps>(
  schema: Schema,
  useCase: (detail: z.output<Schema>, deps: Deps) => Promise<void>,
  deps: Deps & HandlerDeps,
): StepHandler<void> {
  const event: z.ZodType<z.output<Schema>> = eventBridgeEventSchema
    .extend({ detail: schema })
    .transform((parsed) => (parsed as { detail: z.output<Schema> }).detail);
  return stepHandler<typeof event, Deps, void>(event, useCase, deps);
}
