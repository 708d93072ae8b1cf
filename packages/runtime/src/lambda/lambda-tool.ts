import type { LambdaClient } from '@aws-sdk/client-lambda';
import * as z from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { LambdaToolSpec } from './lambda-tool-spec.js';

export { type LambdaToolSpec, lambdaToolSpecSchema } from './lambda-tool-spec.js';

/** The client Lambda tools share when none is given, made on the first call of one. */
let sharedClient: LambdaClient | undefined;

/** The client Lambda tools share, made on first use with the SDK's `LambdaClient` class. */
function sharedLambdaClient(Client: new (config: object) => LambdaClient): LambdaClient {
  sharedClient ??= new Client({});
  return sharedClient;
}

/** Errors with which Lambda reports a function it stopped while it ran: its effect may have happened. */
const KILLED = /^(Sandbox\.Timedout|Runtime\.ExitError|Runtime\.OutOfMemory)$/;

/**
 * Any existing Lambda function as a tool: arguments are validated against its JSON Schema before
 * anything runs (B1, B2), then sent as the function's event, unchanged (with `passIdempotencyKey`,
 * plus the call's `idempotencyKey`); its JSON response is the output, and an error it reports
 * (`FunctionError`) is the call's failure: `outcome unknown: …` when Lambda stopped a
 * non-idempotent function as it ran (timed out, exited, out of memory; decision 0031). Without a
 * `client`, Lambda tools share one, made (and its SDK imported) on the first call.
 */
export function lambdaTool(spec: LambdaToolSpec, client?: LambdaClient): Tool {
  const input = z.fromJSONSchema(spec.parameters);
  if (!(input instanceof z.ZodObject)) {
    throw new Error(`The parameters of Lambda tool "${spec.name}" must be a JSON Schema of type "object".`);
  }
  if (spec.passIdempotencyKey && 'idempotencyKey' in input.shape) {
    throw new Error(
      `Lambda tool "${spec.name}" has a parameter named idempotencyKey and passIdempotencyKey: the event could not carry both; rename the parameter.`,
    );
  }
  return defineTool({
    name: spec.name,
    description: spec.description,
    input,
    ...(spec.sequential === undefined ? {} : { sequential: spec.sequential }),
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    ...(spec.approval === undefined ? {} : { approval: spec.approval }),
    ...(spec.idempotent === undefined ? {} : { idempotent: spec.idempotent }),
    handler: async (args, { signal, idempotencyKey }) => {
      const event = spec.passIdempotencyKey ? { ...args, idempotencyKey } : args;
      // Loaded on the first call: a function whose agent has no Lambda tools never imports it.
      const { InvokeCommand, LambdaClient } = await import('@aws-sdk/client-lambda');
      const lambda = client ?? sharedLambdaClient(LambdaClient);
      const response = await lambda.send(
        new InvokeCommand({
          FunctionName: spec.functionName,
          Payload: new TextEncoder().encode(JSON.stringify(event)),
        }),
        { abortSignal: signal },
      );
      const text = new TextDecoder().decode(response.Payload ?? new Uint8Array());
      if (response.FunctionError !== undefined) throw new Error(functionErrorMessage(spec, text));
      return text === '' ? null : JSON.parse(text);
    },
  });
}

function functionErrorMessage(spec: LambdaToolSpec, text: string): string {
  try {
    const { errorType, errorMessage } = JSON.parse(text) as { errorType?: string; errorMessage?: string };
    const error = `${errorType ?? 'Error'}: ${errorMessage ?? text}`;
    return !spec.idempotent && KILLED.test(errorType ?? '')
      ? `outcome unknown: Lambda stopped the function of ${spec.name} after it may have started (${error})`
      : `${spec.name} failed: ${error}`;
  } catch {
    return `${spec.name} failed: ${text}`;
  }
}
