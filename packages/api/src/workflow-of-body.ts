import {
  formatAgentfileProblem,
  parseAgentfile,
  parseWorkflowSpec,
  type WorkflowSpec,
  type WorkflowStartBody,
} from '@agentstep/protocol';
import { ApiError } from './api-error.js';

/**
 * The workflow a start request sends: its Agentfile text parsed, or its spec checked. 400
 * `InvalidWorkflow` lists every problem in `fields`: at `agentfile` with `line:column: message`,
 * or at the spec's path. `FROM` files cannot be read over HTTP: their text goes inline.
 */
export function workflowOfBody(body: Pick<WorkflowStartBody, 'agentfile' | 'spec'>): WorkflowSpec {
  if (body.agentfile !== undefined) {
    const parsed = parseAgentfile(body.agentfile, { readFile: refuseFrom });
    if (parsed.ok) return parsed.spec;
    throw invalidWorkflow(
      parsed.errors.map((problem) => ({ path: 'agentfile', message: formatAgentfileProblem(problem) })),
    );
  }
  const parsed = parseWorkflowSpec(body.spec);
  if (parsed.ok) return parsed.spec;
  throw invalidWorkflow(
    parsed.errors.map(({ path, message }) => ({ path: path === '' ? 'spec' : `spec.${path}`, message })),
  );
}

function refuseFrom(): never {
  throw new Error('files cannot be read over HTTP: put the text in the Agentfile as a string');
}

function invalidWorkflow(fields: Array<{ path: string; message: string }>): ApiError {
  return new ApiError(400, 'InvalidWorkflow', 'The workflow does not parse or validate.', fields);
}
