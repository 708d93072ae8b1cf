import { type Budget, type TurnRequest, turnRequestSchema } from '@agentstep/protocol';
import type * as z from 'zod';
import { checked } from './checked.js';

/**
 * What a trigger starts each turn with: the execution contract's `turnRequestSchema`, whose
 * `requestId` is always the source event's own id, so an event delivered twice starts one turn.
 */
export interface TurnTriggerOptions {
  /**
   * The user message: text in which each `<$.path>` placeholder (JSONPath in dot notation, e.g.
   * `<$.detail.orderId>`) is filled in from the event. A message that is exactly one placeholder
   * passes that field's JSON value as it is: safe for any text, but the field must be a string.
   * Placeholders inside text are filled in without escaping (EventBridge and Pipes do not escape
   * them), so point those only at fields that never hold `"`, `\` or line breaks: ids, names,
   * states.
   */
  readonly message: string;
  /** The session the turns continue. @default - each turn starts a new session */
  readonly session?: string;
  /** The API tenant the session belongs to. @default - none: no API tenant sees the session */
  readonly tenant?: string;
  /** Model steps one turn may take. @default - the deployment's `maxSteps` */
  readonly maxSteps?: number;
  /** Model steps per execution before the turn continues in a fresh one. @default - the deployment's */
  readonly stepsPerExecution?: number;
  /** What the session may spend. @default - the deployment's `budget` */
  readonly budget?: Budget;
  /** How a batch's calls run. @default - `parallel` */
  readonly toolExecution?: TurnRequest['toolExecution'];
}

/** The contract's fields a trigger copies as they are into every turn it starts. */
const FIXED_FIELDS = [
  'session',
  'tenant',
  'maxSteps',
  'stepsPerExecution',
  'budget',
  'toolExecution',
] as const satisfies readonly (keyof TurnRequest & keyof TurnTriggerOptions)[];

/** A turn's fields that are the same for every event. */
export type FixedTurnFields = Pick<TurnRequest, (typeof FIXED_FIELDS)[number]>;

/**
 * The options' fixed fields, each checked against the contract's schema, and the message template
 * checked as a message, so a mistake fails `cdk synth` rather than every turn the trigger starts.
 */
export function fixedTurnFields(options: TurnTriggerOptions, method: string): FixedTurnFields {
  checked(turnRequestSchema.shape.message, options.message, 'message', `${method} option`);
  const fields: Record<string, unknown> = {};
  for (const field of FIXED_FIELDS) {
    const schema: z.ZodType<unknown> = turnRequestSchema.shape[field];
    if (options[field] !== undefined)
      fields[field] = checked(schema, options[field], field, `${method} option`);
  }
  return fields as FixedTurnFields;
}
