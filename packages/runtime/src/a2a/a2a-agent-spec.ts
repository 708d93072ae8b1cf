import * as z from 'zod';
import {
  DEFAULT_MCP_TIMEOUT_MS,
  MAX_MCP_TIMEOUT_MS,
  mcpServerNameSchema,
  mcpServerSpecSchema,
} from '../mcp/mcp-server-spec.js';

/** How long one call to a remote agent may take, unless its spec says otherwise: as an MCP call's. */
export const DEFAULT_A2A_TIMEOUT_MS = DEFAULT_MCP_TIMEOUT_MS;

/** The longest time limit of a remote agent's calls: as an MCP server's, within the tools function's 5 minutes. */
export const MAX_A2A_TIMEOUT_MS = MAX_MCP_TIMEOUT_MS;

/**
 * How long asking a remote agent to cancel a task given up on may take (an AgentStep agent answers
 * once the turn's end is logged, or after 5 s).
 */
export const A2A_CANCEL_TIMEOUT_MS = 8_000;

/**
 * How much longer than its time limit a call's tool may take: room to cancel the task, so that the
 * call fails with its own message rather than the runtime's.
 */
export const A2A_TIMEOUT_GRACE_MS = A2A_CANCEL_TIMEOUT_MS + 2_000;

/** What the tool of a remote agent is called after its name: `NAME__send`. */
const SEND_SUFFIX = '__send';

/**
 * One remote A2A agent an agent calls as the tool `NAME__send`: its name (as an MCP server's, so
 * the tool's name stays valid), the base URL its agent card is read under, and the headers every
 * request carries (a value may name a secret instead of holding it).
 */
export const a2aAgentSpecSchema = z.strictObject({
  /** 1–32 letters, digits, `_` or `-`, from a letter or `_`, as an MCP server's: the tool is `NAME__send`. */
  name: z.string().refine((name) => mcpServerNameSchema.safeParse(name).success, {
    message: 'a remote agent name is 1–32 letters, digits, "_" or "-", starting with a letter or "_"',
  }),
  /**
   * The agent's base URL: its card is read at `URL/.well-known/agent-card.json`. `https://…`;
   * `http://…` locally only (a deployment refuses it: it would send the headers unencrypted).
   */
  url: z.string().refine((url) => /^https?:\/\//.test(url) && URL.canParse(url), {
    message: "a remote agent's url is http(s)://…, the base its agent card is read under",
  }),
  /** HTTP headers sent with every request (the card's too), as an MCP server's `headers`. */
  headers: mcpServerSpecSchema.shape.headers,
  /** What the remote agent does, for the model. @default a description naming it and its url's origin */
  description: z.string().min(1).optional(),
  /** Time limit of one call, in milliseconds. @default 60 000 */
  timeoutMs: z.number().int().positive().max(MAX_A2A_TIMEOUT_MS).optional(),
});

/** One remote A2A agent an agent calls: see {@link a2aAgentSpecSchema}. */
export type A2aAgentSpec = z.input<typeof a2aAgentSpecSchema>;

/** The name of the tool that sends a message to the remote agent `name`: `NAME__send`. */
export function a2aToolName(name: string): string {
  return `${name}${SEND_SUFFIX}`;
}
