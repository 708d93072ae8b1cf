import { invokeToolInputSchema } from '@agentstep/protocol';
import { type InvokeToolDeps, invokeTool } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** InvokeTool: runs one call of a batch with the tools this function hosts (MCP tools too), stores its outcome. */
export const createHandler = (deps: InvokeToolDeps & HandlerDeps) =>
  stepHandler(invokeToolInputSchema, invokeTool, deps);
