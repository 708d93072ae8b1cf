import { expect } from 'vitest';
import type { ContextFigures } from '../model/context-refusal.js';
import { ContextTooLongError } from '../model/model-errors.js';
import { type RecordedError, recordedErrors } from './recorded-frames.js';

/** The first recorded error response a fixture file holds. */
export function refusalIn(file: URL): RecordedError {
  return recordedErrors(file)[0] ?? expect.fail(`${file.pathname} holds no response`);
}

/**
 * Expects a step's failure to be a provider's context-window refusal as AgentStep names it:
 * ContextTooLong (the name the fixture expects), the figures the provider stated, its own words,
 * and the SDK's error as the cause.
 */
export function expectContextTooLong(
  error: Error,
  refusal: {
    expected: string;
    figures: ContextFigures;
    says: string;
    cause: abstract new (...args: never[]) => unknown;
  },
): void {
  expect(error).toBeInstanceOf(ContextTooLongError);
  expect(error).toMatchObject({ name: refusal.expected });
  expect(error).toHaveProperty('figures', refusal.figures);
  expect(error.message).toContain("longer than the model's context window");
  expect(error.message).toContain(refusal.says);
  expect(error.cause).toBeInstanceOf(refusal.cause);
}
