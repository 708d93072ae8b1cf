import type { Context } from 'hono';
import * as z from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { MAX_BODY_BYTES, readCapped } from '../read-body.js';
import { tenantOf } from '../session-access.js';
import { A2aError, a2aErrorHeaders, a2aErrorOf } from './a2a-error.js';
import { jsonRpcStream } from './a2a-format.js';
import { A2A_METHODS, type A2aMethod, a2aOperation } from './a2a-operations.js';
import { refuseOtherVersions } from './a2a-version.js';

const requestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  method: z.string(),
  params: z.unknown().optional(),
});

/**
 * `POST /a2a`: A2A 1.0's JSON-RPC binding for the caller's tenant. Errors are JSON-RPC's (A2A's
 * codes, with `google.rpc.ErrorInfo` details), on HTTP 200 but for the server's own failures (500)
 * and a store that cannot be reached (503, with `Retry-After`).
 */
export async function answerA2aJsonRpc(c: Context, deps: ApiDeps): Promise<Response> {
  const tenant = tenantOf(c);
  let id: string | number | null = null;
  try {
    refuseOtherVersions(c);
    const request = requestSchema.safeParse(await jsonBody(c.req.raw));
    if (!request.success)
      throw new A2aError(
        'invalidRequest',
        'A JSON-RPC 2.0 request has "jsonrpc": "2.0", an id and a method.',
      );
    id = request.data.id;
    const method = request.data.method;
    if (!isMethod(method))
      throw new A2aError(
        'methodNotFound',
        `Method ${method} is not one this agent answers: ${A2A_METHODS.join(', ')}.`,
      );
    const answer = await a2aOperation(c, deps, tenant, method, request.data.params, jsonRpcStream(id));
    if ('stream' in answer) return answer.stream;
    return c.json({ jsonrpc: '2.0', id, result: answer.result });
  } catch (error) {
    const refusal = a2aErrorOf(error);
    const status = refusal.kind.httpStatus >= 500 ? (refusal.kind.httpStatus as 500 | 503) : 200;
    return c.json({ jsonrpc: '2.0', id, error: refusal.jsonRpc }, status, a2aErrorHeaders(refusal));
  }
}

function isMethod(method: string): method is A2aMethod {
  return (A2A_METHODS as readonly string[]).includes(method);
}

/** The request's body as JSON: `{}` when it has none; A2A's parse error when it is not JSON. */
export async function jsonBody(request: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readCapped(request.body, MAX_BODY_BYTES));
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new A2aError('parseError', `The body is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
