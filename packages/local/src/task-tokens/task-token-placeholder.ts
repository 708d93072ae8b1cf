import { randomUUID } from 'node:crypto';

/**
 * What `$$.Task.Token` evaluates to in the engine, whose context object is one for the whole
 * execution: each task attempt then puts its own token in its place. Random, so that no input can
 * hold it by chance.
 */
export const TASK_TOKEN_PLACEHOLDER = `local:task-token-placeholder:${randomUUID()}`;

/**
 * The evaluated parameters of a task with `token` wherever the placeholder appears, as a value or
 * inside a string (`States.Format('…{}', $$.Task.Token)`).
 */
export function withTaskToken(parameters: unknown, token: string): unknown {
  // Neither the placeholder nor a token holds a character JSON escapes, so the text swap is exact.
  return JSON.parse(JSON.stringify(parameters).replaceAll(TASK_TOKEN_PLACEHOLDER, token));
}
