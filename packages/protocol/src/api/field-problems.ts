import type * as z from 'zod';
import type { FieldProblem } from './api-shapes.js';

/**
 * Each problem a schema found, at its place (`path`, dotted; `''` for the value itself). An unknown
 * key is a problem at that key, not at the object holding it, and says `unknownKey`.
 */
export function fieldProblems(error: z.ZodError, unknownKey: string): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: unknownKey }));
    return [{ path: path.join('.'), message: issue.message }];
  });
}
