import { toolDescriptionSchema } from '@agentstep/protocol';
import * as z from 'zod';

/**
 * One tool of an MCP server as a turn uses it: plain JSON, logged once per turn, enough to rebuild
 * the tool (with {@link mcpTool}) without asking the server again.
 */
export const mcpToolEntrySchema = z.strictObject({
  /** How the model calls it: `SERVER__TOOL`. */
  name: toolDescriptionSchema.shape.name,
  /** The server's name in the agent's `mcpServers`. */
  server: z.string().min(1),
  /** The tool's name on the server. */
  tool: z.string().min(1),
  /** What the server says the tool does (may be empty). */
  description: z.string(),
  /** The tool's arguments as the server's JSON Schema. */
  inputSchema: z.record(z.string(), z.unknown()),
  /** Each call waits for a person's approval. */
  approval: z.boolean(),
  /** Time limit of one call, in milliseconds. */
  timeoutMs: z.number().int().positive(),
});

/** One tool of an MCP server as a turn uses it: see {@link mcpToolEntrySchema}. */
export type McpToolEntry = z.infer<typeof mcpToolEntrySchema>;
