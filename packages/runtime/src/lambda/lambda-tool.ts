import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import * as z from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { LambdaToolSpec } from './lambda-tool-spec.js';

export { type LambdaToolSpec, lambdaToolSpecSchema } from './lambda-tool-spec.js';

/**
 * Any existing Lambda function as a tool: arguments are validated against its JSON Schema before
 * anything runs (B1, B2), then sent as the function's event, unchanged; its JSON response is the
 * output, and an error it reports (`FunctionError`) is the call's failure.
 */
export function lambdaTool(spec: LambdaToolSpec, client: LambdaClient = new LambdaClient({})): Tool {
  const input = z.fromJSONSchema(spec.parameters);
  if (!(input instanceof z.ZodObject)) {
    throw new Error(`The parameters of Lambda tool "${spec.name}" must be a JSON Schema of type "object".`);
  }
  return defineTool({
    name: spec.name,
    description: spec.description,
    input,
    ...(spec.sequential === undefined ? {} : { sequential: spec.sequential }),
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    ...(spec.approval === undefined ? {} : { approval: spec.approval }),
    handler: async (args, { signal }) => {
      const response = await client.send(
        new InvokeCommand({
          FunctionName: spec.functionName,
          Payload: new TextEncoder().encode(JSON.stringify(args)),
        }),
        { abortSignal: signal },
      );
      const text = new TextDecoder().decode(response.Payload ?? new Uint8Array());
      if (response.FunctionError !== undefined) throw new Error(functionErrorMessage(spec.name, text));
      return text === '' ? null : JSON.parse(text);
    },
  });
}

function functionErrorMessage(tool: string, text: string): string {
  try {
    const { errorType, errorMessage } = JSON.parse(text) as { errorType?: string; errorMessage?: string };
    return `${tool} failed: ${errorType ?? 'Error'}: ${errorMessage ?? text}`;
  } catch {
    return `${tool} failed: ${text}`;
  }
}
