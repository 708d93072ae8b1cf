import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiDeps } from '../api-deps.js';
import { tenantOf } from '../session-access.js';
import { A2aError, a2aErrorHeaders, a2aErrorOf } from './a2a-error.js';
import { restStream } from './a2a-format.js';
import { jsonBody } from './a2a-json-rpc.js';
import { type A2aMethod, a2aOperation } from './a2a-operations.js';
import { refuseOtherVersions } from './a2a-version.js';

/** The HTTP+JSON binding's operations: method and path (under the binding's address), to the operation. */
const ROUTES: ReadonlyArray<{ method: string; path: RegExp; operation: A2aMethod }> = [
  { method: 'POST', path: /^\/message:send$/, operation: 'SendMessage' },
  { method: 'POST', path: /^\/message:stream$/, operation: 'SendStreamingMessage' },
  { method: 'GET', path: /^\/tasks$/, operation: 'ListTasks' },
  { method: 'GET', path: /^\/tasks\/([^/:]+)$/, operation: 'GetTask' },
  { method: 'POST', path: /^\/tasks\/([^/:]+):cancel$/, operation: 'CancelTask' },
  { method: 'POST', path: /^\/tasks\/([^/:]+):subscribe$/, operation: 'SubscribeToTask' },
  { method: 'GET', path: /^\/tasks\/([^/:]+):subscribe$/, operation: 'SubscribeToTask' },
];

/**
 * A2A 1.0's HTTP+JSON binding under `prefix`, for the caller's tenant: `POST /message:send`,
 * `POST /message:stream`, `GET /tasks`, `GET /tasks/{id}`, `POST /tasks/{id}:cancel` and
 * `GET|POST /tasks/{id}:subscribe`. A GET's params are its query; a POST's its JSON body (none for
 * cancel and subscribe). Errors are `google.rpc.Status` bodies with their HTTP status.
 */
export async function answerA2aRest(c: Context, deps: ApiDeps, prefix: string): Promise<Response> {
  const tenant = tenantOf(c);
  try {
    refuseOtherVersions(c);
    const path = c.req.path.slice(prefix.length);
    const route = ROUTES.find(({ method, path: pattern }) => method === c.req.method && pattern.test(path));
    if (route === undefined)
      throw new A2aError('methodNotFound', `No A2A operation at ${c.req.method} ${c.req.path}.`);
    const taskId = route.path.exec(path)?.[1];
    const given = c.req.method === 'GET' ? c.req.query() : await jsonBody(c.req.raw);
    const params = taskId === undefined ? given : { ...(given as object), id: decoded(taskId) };
    const answer = await a2aOperation(c, deps, tenant, route.operation, params, restStream);
    if ('stream' in answer) return answer.stream;
    return c.json(answer.result as object);
  } catch (error) {
    const refusal = a2aErrorOf(error);
    const status = refusal.kind.httpStatus as ContentfulStatusCode;
    return c.json(refusal.rest, status, a2aErrorHeaders(refusal));
  }
}

/** A path segment decoded; one whose escapes are not UTF-8 names no task. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    throw new A2aError('taskNotFound', `Task ${segment} was not found.`, { cause: error });
  }
}
