import type * as z from 'zod';
import { IDENTITY_ARGUMENT, type Tool } from './define-tool.js';

/** Valid arguments, or every problem with them in one message. */
export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/**
 * Validates a call's arguments before any tool code runs (B1, B2): identity keys are refused, a
 * `null` for a field that does not accept null counts as missing, unknown keys are named, and
 * every problem is listed.
 */
export function validateArgs(tool: Tool, args: Record<string, unknown>): ArgsCheck {
  const identity = Object.keys(args).filter((key) => IDENTITY_ARGUMENT.test(key));
  if (identity.length > 0) {
    return {
      ok: false,
      message: `${identity.join(', ')}: identity is supplied by the runtime; remove ${identity.length > 1 ? 'these arguments' : 'this argument'}.`,
    };
  }
  const parsed = tool.input.safeParse(withoutNulls(tool.input, args));
  if (parsed.success) return { ok: true, args: parsed.data };
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, tool));
  return { ok: false, message: `Invalid arguments for ${tool.name}: ${problems.join('; ')}` };
}

function withoutNulls(schema: z.ZodObject, args: Record<string, unknown>): Record<string, unknown> {
  const shape = schema.shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(args).filter(
      ([key, value]) => value !== null || shape[key]?.safeParse(null).success === true,
    ),
  );
}

function describeIssue(issue: z.core.$ZodIssue, tool: Tool): string {
  if (issue.code === 'unrecognized_keys') {
    const known = Object.keys(tool.input.shape).join(', ') || 'none';
    return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} (arguments: ${known})`;
  }
  const path = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
  const missing = issue.code === 'invalid_type' && issue.message.includes('received undefined');
  return `${path}: ${missing ? 'required' : issue.message.replace(/^Invalid input: /, '')}`;
}
