import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { parser } from '@aws-lambda-powertools/parser/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod';

/** What every step handler may be given besides its use case's own dependencies. */
export interface HandlerDeps {
  /** @default a Powertools Logger for service `agentstep` */
  logger?: Logger;
}

/** A Lambda handler: any payload in (validated inside), the use case's output out. */
export type StepHandler<Output> = (event: unknown, context: Context) => Promise<Output>;

/**
 * A Lambda handler around exactly one use case: Powertools adds the Lambda context to every log
 * line and validates the input with the step's zod schema (a bad payload fails the task with a
 * ParseError before the use case runs). Errors leave the handler for Step Functions to route.
 */
export function stepHandler<Schema extends z.ZodType, Deps, Output>(
  schema: Schema,
  useCase: (input: z.output<Schema>, deps: Deps) => Promise<Output>,
  deps: Deps & HandlerDeps,
): StepHandler<Output> {
  const logger = deps.logger ?? new Logger({ serviceName: 'agentstep' });
  return middy<z.output<Schema>, Output>()
    .use(injectLambdaContext(logger))
    .use(parser({ schema }))
    .handler((input) => useCase(input, deps)) as StepHandler<Output>;
}
