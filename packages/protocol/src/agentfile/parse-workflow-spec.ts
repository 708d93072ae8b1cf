import type { FieldProblem } from '../api/api-shapes.js';
import { fieldProblems } from '../api/field-problems.js';
import { type WorkflowSpec, workflowSpecSchema } from './workflow-spec.js';

/** A checked spec, or every problem with its dotted path (`steps.0.goals.1`). */
export type ParsedWorkflowSpec = { ok: true; spec: WorkflowSpec } | { ok: false; errors: FieldProblem[] };

/**
 * Checks a workflow spec written in code or JSON with the same rules as an Agentfile (shapes, then
 * cross references). Never throws; unknown keys are dropped, as `workflowSpecSchema` does.
 */
export function parseWorkflowSpec(value: unknown): ParsedWorkflowSpec {
  const parsed = workflowSpecSchema.safeParse(value);
  if (parsed.success) return { ok: true, spec: parsed.data };
  return { ok: false, errors: fieldProblems(parsed.error, 'is not a field of a workflow spec') };
}
