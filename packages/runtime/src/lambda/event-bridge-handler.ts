import { EventBridgeEnvelope } from '@aws-lambda-powertools/parser/envelopes';
import type * as z from 'zod';
import { type HandlerDeps, type StepHandler, stepHandler } from './step-handler.js';

/**
 * A Lambda handler for an EventBridge rule's target around exactly one use case: the event's
 * `detail` is validated with `schema` (Powertools' EventBridge envelope) before the use case runs.
 */
export function eventBridgeHandler<Schema extends z.ZodType, Deps>(
  schema: Schema,
  useCase: (detail: z.output<Schema>, deps: Deps) => Promise<void>,
  deps: Deps & HandlerDeps,
): StepHandler<void> {
  return stepHandler(schema, useCase, deps, EventBridgeEnvelope);
}
