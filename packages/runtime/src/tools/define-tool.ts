import * as z from 'zod';
import { InvalidToolError } from '../errors.js';

/** What a tool knows about the call it serves; identity comes from here, never from args (B2). */
export interface ToolContext {
  session: string;
  turn: string;
  batch: string;
  position: number;
  /** The ARN of the state machine running the call, when deployed; sub-agents start there. */
  stateMachine?: string | undefined;
  /**
   * The call's stable key, `<session>:<batch>:<position>` (the session as the log stores it): the
   * same on every retry and redelivery of the call, so an effect keyed by it happens once.
   */
  idempotencyKey: string;
  /** Aborted when the call times out. */
  signal: AbortSignal;
}

/** What {@link defineTool} takes. */
export interface ToolDefinition<Input extends z.ZodObject> {
  /** Letters, digits, `_`, `.` or `-`; how the model calls the tool. */
  name: string;
  /** What the tool does, for the system prompt. */
  description: string;
  /** The arguments; unknown keys are always rejected (B1). */
  input: Input;
  /** Runs alone: a batch that calls it runs one call at a time (B3). @default false */
  sequential?: boolean;
  /** Time limit of one call. @default 30 s */
  timeoutMs?: number;
  /** Each call waits for a person's approval before it runs. @default false */
  approval?: boolean;
  /**
   * Running a call twice has the effect of running it once: a call whose outcome is unknown (its
   * function crashed or timed out) is run again. Otherwise such a call's result is the failure
   * `outcome unknown: …`, never a second run. @default false
   */
  idempotent?: boolean;
  handler(args: z.output<Input>, context: ToolContext): unknown;
}

/** A tool ready to run: its definition with defaults applied and a strict argument schema. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodObject;
  readonly sequential: boolean;
  readonly timeoutMs: number;
  readonly approval: boolean;
  readonly idempotent: boolean;
  readonly handler: (args: Record<string, unknown>, context: ToolContext) => unknown;
}

/** Argument names reserved for identity, which the runtime injects (B2). */
export const IDENTITY_ARGUMENT = /^(session|tenant)$|^(session|tenant|user)[_-]?id$/i;
const TOOL_NAME = /^[A-Za-z_][\w.-]{0,63}$/;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Defines a tool. Throws an {@link InvalidToolError} naming the tool and the rule, at definition
 * time rather than at call time, when the name is not usable, the description or handler is
 * missing, `input` is not a zod object schema the prompt can describe as JSON Schema, or it
 * declares an identity argument.
 */
export function defineTool<Input extends z.ZodObject>(definition: ToolDefinition<Input>): Tool {
  // The checks hold for JavaScript callers and values cast through `any` too: the types alone do not.
  const { name, description, handler } = definition as Partial<ToolDefinition<Input>>;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new InvalidToolError(
      typeof name === 'string' ? name : '',
      `name must be 1–64 letters, digits, "_", "." or "-", from a letter or "_"; received ${typeof name === 'string' ? JSON.stringify(name) : received(name)}.`,
    );
  }
  if (typeof description !== 'string' || description === '')
    throw new InvalidToolError(
      name,
      `description must be a text saying what the tool does; received ${received(description)}.`,
    );
  if (typeof handler !== 'function')
    throw new InvalidToolError(
      name,
      `handler must be a function (args, context) => output; received ${received(handler)}.`,
    );
  const input = strictInput(name, definition.input);
  const identity = Object.keys(input.shape).filter((key) => IDENTITY_ARGUMENT.test(key));
  if (identity.length > 0) {
    throw new InvalidToolError(
      name,
      `declares ${identity.join(', ')}: identity comes from the call context, not from model arguments.`,
    );
  }
  return {
    name,
    description,
    input,
    sequential: definition.sequential ?? false,
    timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    approval: definition.approval ?? false,
    idempotent: definition.idempotent ?? false,
    handler: handler as Tool['handler'],
  };
}

/** The rule every tool's `input` follows, as its errors state it. */
const INPUT_RULE = "input must be a zod object schema, z.object({ ... }) of zod 4 (import * as z from 'zod')";

/** What tells schemas apart: zod 4's `_zod.def.type` (`object`, `string`, …), zod 3's `_def.typeName`. */
type SchemaLike = { _zod?: { def?: { type?: unknown } }; _def?: { typeName?: unknown } } | null | undefined;

/** `input` as a strict zod object schema whose JSON Schema the system prompt can show the model. */
function strictInput(tool: string, input: unknown): z.ZodObject {
  const type = (input as SchemaLike)?._zod?.def?.type;
  if (type !== 'object' || typeof (input as Partial<z.ZodObject>).strict !== 'function') {
    throw new InvalidToolError(tool, `${INPUT_RULE}; received ${receivedInput(input)}.`);
  }
  const strict = (input as z.ZodObject).strict();
  try {
    // What the prompt renders (`toolDescription`): a type JSON Schema cannot show fails here, not mid-turn.
    z.toJSONSchema(strict, { io: 'input' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidToolError(
      tool,
      `input must be describable as JSON Schema for the model (${reason}); use JSON types: strings, numbers, booleans, arrays, objects.`,
      { cause: error },
    );
  }
  return strict;
}

/** What was given as `input`, in words: the kind of zod schema, a zod 3 schema, a plain object or a value. */
function receivedInput(input: unknown): string {
  const schema = input as SchemaLike;
  const type = schema?._zod?.def?.type;
  if (typeof type === 'string')
    return type === 'object'
      ? 'a zod/mini object schema, which has no .strict()'
      : `${article(type)} ${type} schema`;
  if (typeof schema?._def?.typeName === 'string') return `a zod 3 schema (${schema._def.typeName})`;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const keys = Object.keys(input);
    return keys.length === 0
      ? 'a plain object {}'
      : `a plain object with ${keys.join(', ')}: wrap zod types in z.object, e.g. z.object({ ${keys[0]}: z.string() })`;
  }
  return received(input);
}

/** A value that is not what was expected, in words. */
function received(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `${article(typeof value)} ${typeof value}`;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
