import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { EventBridgeEnvelope } from '@aws-lambda-powertools/parser/envelopes';
import { parser } from '@aws-lambda-powertools/parser/middleware';
import middy from '@middy/core';
import type * as z from 'zod';
import type { HandlerDeps, StepHandler } from './step-handler.js';

/**
 * A Lambda handler for an EventBridge rule's target around exactly one use case: the event's
 * `detail` is validated with `schema` (Powertools' EventBridge envelope) before the use case runs.
 */
export function eventBridgeHandler<Schema extends z.ZodType, Deps>(
  schema: Schema,
  useCase: (detail: z.output<Schema>, deps: Deps) => Promise<void>,
  deps: Deps & HandlerDeps,
): StepHandler<void> {
  const logger = deps.logger ?? new Logger({ serviceName: 'agentstep' });
  return middy<z.output<Schema>, void>()
    .use(injectLambdaContext(logger))
    .use(parser({ schema, envelope: EventBridgeEnvelope }))
    .handler((detail) => useCase(detail, deps)) as StepHandler<void>;
}
