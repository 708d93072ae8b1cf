import type * as z from 'zod';

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
 * Defines a tool. Throws at definition time, not at call time, when the name is not usable or the
 * schema declares an identity argument.
 */
export function defineTool<Input extends z.ZodObject>(definition: ToolDefinition<Input>): Tool {
  if (!TOOL_NAME.test(definition.name)) {
    throw new Error(`Tool name "${definition.name}" must be 1–64 letters, digits, "_", "." or "-".`);
  }
  const identity = Object.keys(definition.input.shape).filter((key) => IDENTITY_ARGUMENT.test(key));
  if (identity.length > 0) {
    throw new Error(
      `Tool "${definition.name}" declares ${identity.join(', ')}: identity comes from the call context, not from model arguments.`,
    );
  }
  return {
    name: definition.name,
    description: definition.description,
    input: definition.input.strict(),
    sequential: definition.sequential ?? false,
    timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    approval: definition.approval ?? false,
    idempotent: definition.idempotent ?? false,
    handler: definition.handler as Tool['handler'],
  };
}
