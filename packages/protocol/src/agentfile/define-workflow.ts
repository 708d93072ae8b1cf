import { InvalidWorkflowError } from './invalid-workflow-error.js';
import { parseWorkflowSpec } from './parse-workflow-spec.js';
import type { WorkflowSpec } from './workflow-spec.js';

/**
 * A workflow written in code, checked like an Agentfile: returns the parsed spec, or throws an
 * {@link InvalidWorkflowError} listing every problem with its path (`steps.0.goals.0: …`).
 */
export function defineWorkflow(spec: WorkflowSpec): WorkflowSpec {
  const parsed = parseWorkflowSpec(spec);
  if (!parsed.ok) throw new InvalidWorkflowError(parsed.errors);
  return parsed.spec;
}
