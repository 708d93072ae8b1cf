import type * as z from 'zod';
import { IDENTITY_ARGUMENT, type Tool } from './define-tool.js';

/** One problem with a call's arguments: where (`path`, dotted; `args` for the whole object) and what. */
export interface ArgsProblem {
  path: string;
  message: string;
}

/** Valid arguments, or every problem with them: in one message, and one by one. */
export type ArgsCheck =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; message: string; problems: ArgsProblem[] };

/**
 * Validates a call's arguments before any tool code runs (B1, B2): identity keys are refused, a
 * `null` for a field that does not accept null counts as missing, unknown keys are named, and
 * every problem is listed.
 */
export function validateArgs(tool: Tool, args: Record<string, unknown>): ArgsCheck {
  const identity = Object.keys(args).filter((key) => IDENTITY_ARGUMENT.test(key));
  if (identity.length > 0) {
    const message = `identity is supplied by the runtime; remove ${identity.length > 1 ? 'these arguments' : 'this argument'}`;
    return {
      ok: false,
      message: `${identity.join(', ')}: ${message}.`,
      problems: identity.map((path) => ({ path, message })),
    };
  }
  const parsed = tool.input.safeParse(withoutNulls(tool.input, args));
  if (parsed.success) return { ok: true, args: parsed.data };
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, tool));
  const listed = problems.map(({ path, message }) => (path === 'args' ? message : `${path}: ${message}`));
  return { ok: false, message: `Invalid arguments for ${tool.name}: ${listed.join('; ')}`, problems };
}

function withoutNulls(schema: z.ZodObject, args: Record<string, unknown>): Record<string, unknown> {
  const shape = schema.shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(args).filter(
      ([key, value]) => value !== null || shape[key]?.safeParse(null).success === true,
    ),
  );
}

function describeIssue(issue: z.core.$ZodIssue, tool: Tool): ArgsProblem {
  if (issue.code === 'unrecognized_keys') {
    const known = Object.keys(tool.input.shape).join(', ') || 'none';
    const message = `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} (arguments: ${known})`;
    return { path: 'args', message };
  }
  const path = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
  const missing = issue.code === 'invalid_type' && issue.message.includes('received undefined');
  return { path, message: missing ? 'required' : issue.message.replace(/^Invalid input: /, '') };
}
