import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod';

/** The requests the agent's server answers (its tools, resources, logging level, the SDK's initialization and tasks), by method. */
const REQUESTS = new Map<string, z.ZodType>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    GetTaskRequestSchema,
    GetTaskPayloadRequestSchema,
    ListTasksRequestSchema,
    CancelTaskRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SetLevelRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema]),
);

/**
 * Makes `transport` answer a request of the agent's server whose params do not fit its method (a
 * field of the wrong type, or missing) with JSON-RPC's Invalid params (`-32602`) and one sentence
 * naming each such field, what it must be and what it was, before the server sees it: the SDK's
 * server would answer `-32603` with the schema's whole report. Call it once the server is connected.
 */
export function refuseInvalidMcpParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const checked = isJSONRPCRequest(message) ? REQUESTS.get(message.method)?.safeParse(message) : undefined;
    if (checked === undefined || checked.success || !isJSONRPCRequest(message))
      return deliver?.(message, extra);
    const error = { code: ErrorCode.InvalidParams, message: invalidParams(message, checked.error) };
    // A client gone before its answer has nothing to read: nothing more to do.
    transport.send({ jsonrpc: '2.0', id: message.id, error }).catch(() => undefined);
  };
}

/** `Invalid params for METHOD: FIELD must be …; ….` */
function invalidParams(request: { method: string }, error: z.ZodError): string {
  const problems = new Map<string, string>();
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || 'the request';
    if (!problems.has(field))
      problems.set(field, `${field} ${problemOf(issue, valueAt(request, issue.path))}`);
  }
  return `Invalid params for ${request.method}: ${[...problems.values()].join('; ')}.`;
}

/** What is wrong with `value`, the field `issue` is about, and what it must be. */
function problemOf(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    const kind = kindOf(issue.expected);
    return value === undefined ? `is missing: it must be ${kind}` : `must be ${kind}, not ${describe(value)}`;
  }
  if (issue.code === 'invalid_union') {
    const kinds = issue.errors.flatMap((branch) =>
      branch.flatMap((inner) =>
        inner.code === 'invalid_type' && inner.path.length === 0 ? [inner.expected] : [],
      ),
    );
    if (kinds.length > 0) return `must be ${kinds.map(kindOf).join(' or ')}, not ${describe(value)}`;
  }
  if (issue.code === 'invalid_value')
    return `must be ${issue.values.map((allowed) => JSON.stringify(allowed)).join(' or ')}`;
  return `is not valid (${issue.message})`;
}

const KINDS: Record<string, string> = {
  array: 'an array',
  int: 'an integer',
  object: 'an object',
  record: 'an object',
};

function kindOf(expected: string): string {
  return KINDS[expected] ?? `a ${expected}`;
}

/** A value's JSON type, as a sentence names it. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
