import * as z from 'zod';
import { mcpOAuthSchema } from './mcp-oauth-spec.js';
import { parseStdioCommand } from './parse-stdio-command.js';

/** How long one call to an MCP server may take, unless its spec says otherwise. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/**
 * The longest time limit of a server's calls: a call and its grace must end within the tools
 * function's own 5 minutes.
 */
export const MAX_MCP_TIMEOUT_MS = 240_000;

/**
 * The name an agent gives an MCP server: its tools reach the model as `NAME__TOOL`, which must stay
 * a valid tool name of at most 64 characters.
 */
export const mcpServerNameSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/,
    'an MCP server name is 1–32 letters, digits, "_" or "-", starting with a letter or "_"',
  );

const headerValueSchema = z.union([
  z.string(),
  z.strictObject({
    /** The secret's name: an environment variable locally, a Secrets Manager secret when deployed. */
    secret: z.string().min(1),
    /** Text put before the secret's value, such as `Bearer `. */
    prefix: z.string().optional(),
  }),
]);

const urlSchema = z
  .string()
  .refine((url) => isHttpUrl(url) || isStdioUrl(url), {
    message: 'an MCP server url is http(s)://… (streamable HTTP) or stdio:COMMAND ARGS… (local only)',
  })
  .superRefine((url, context) => {
    if (!isStdioUrl(url)) return;
    try {
      parseStdioCommand(url);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  });

/** One MCP server whose tools an agent uses. */
export const mcpServerSpecSchema = z
  .strictObject({
    /** `http(s)://…` for a streamable HTTP server, or `stdio:COMMAND ARGS…` for a local process. */
    url: urlSchema,
    /** HTTP headers sent with every request; a value may name a secret instead of holding it. */
    headers: z.record(z.string().min(1), headerValueSchema).optional(),
    /** OAuth client credentials: the agent gets its access token itself (see {@link mcpOAuthSchema}). */
    oauth: mcpOAuthSchema.optional(),
    /** Only these of the server's tools (by the server's names). @default every tool */
    tools: z.array(z.string().min(1)).optional(),
    /** Calls wait for a person's approval: every tool (`true`) or these (by the server's names). */
    approval: z.union([z.boolean(), z.array(z.string().min(1))]).optional(),
    /** Time limit of one call, in milliseconds. @default 60 000 */
    timeoutMs: z.number().int().positive().max(MAX_MCP_TIMEOUT_MS).optional(),
  })
  .refine((spec) => !(spec.headers && isStdioUrl(spec.url)), {
    message: 'headers apply to HTTP servers only: a stdio: server takes none',
    path: ['headers'],
  })
  .refine((spec) => !(spec.oauth && isStdioUrl(spec.url)), {
    message: 'oauth applies to HTTP servers only: a stdio: server takes none',
    path: ['oauth'],
  })
  .refine((spec) => !(spec.oauth && hasAuthorizationHeader(spec.headers)), {
    message: 'oauth sends the Authorization header: leave it out of headers',
    path: ['headers'],
  });

/** One MCP server whose tools an agent uses: see {@link mcpServerSpecSchema}. */
export type McpServerSpec = z.input<typeof mcpServerSpecSchema>;

/** A header's value as a spec gives it: the text, or the name of a secret holding it. */
export type McpHeaderValue = z.infer<typeof headerValueSchema>;

/** Whether the url names a local process (`stdio:COMMAND ARGS…`). */
export function isStdioUrl(url: string): boolean {
  return url.startsWith('stdio:');
}

/** Whether `headers` set `Authorization` (in any case). */
export function hasAuthorizationHeader(headers: Readonly<Record<string, unknown>> | undefined): boolean {
  return Object.keys(headers ?? {}).some((header) => header.toLowerCase() === 'authorization');
}

function isHttpUrl(url: string): boolean {
  return /^https?:\/\//.test(url) && URL.canParse(url);
}
