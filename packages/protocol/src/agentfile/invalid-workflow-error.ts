import type { FieldProblem } from '../api/api-shapes.js';
import { ERROR_NAMES } from '../error-names.js';

/** A workflow spec given to `defineWorkflow` broke the rules; `problems` holds each one with its path. */
export class InvalidWorkflowError extends Error {
  override readonly name = ERROR_NAMES.invalidWorkflow;

  constructor(readonly problems: FieldProblem[]) {
    const listed = problems.map((problem) => `  ${problem.path || '(the spec)'}: ${problem.message}`);
    super(
      `The workflow spec has ${problems.length} problem${problems.length === 1 ? '' : 's'}; fix ${problems.length === 1 ? 'it' : 'each'} at its path:\n${listed.join('\n')}`,
    );
  }
}
