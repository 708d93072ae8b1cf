import { createHash } from 'node:crypto';
import type { WorkflowExecutionInput } from '@agentstep/protocol';
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { WorkflowStarter } from '../workflows/workflow-starter.js';

/** Options of {@link StepFunctionsWorkflowStarter}. */
export interface StepFunctionsWorkflowStarterOptions {
  /** The workflow state machine (`AgentStep.workflowStateMachine.stateMachineArn`). */
  stateMachineArn: string;
  /** @default a default `SFNClient` */
  client?: SFNClient;
}

/** The longest execution name Step Functions takes. */
const MAX_EXECUTION_NAME = 80;

/**
 * Starts a workflow run as an execution of the workflow state machine named after the run, so a
 * retried start starts one execution: Step Functions answers the first for the same name and input,
 * and refuses a second once it has ended, which is the run already started.
 */
export class StepFunctionsWorkflowStarter implements WorkflowStarter {
  readonly #client: SFNClient;
  readonly #stateMachineArn: string;

  constructor(options: StepFunctionsWorkflowStarterOptions) {
    this.#client = options.client ?? new SFNClient({});
    this.#stateMachineArn = options.stateMachineArn;
  }

  async start(run: string): Promise<string> {
    const name = executionName(run);
    const input: WorkflowExecutionInput = { run };
    try {
      const started = await this.#client.send(
        new StartExecutionCommand({
          stateMachineArn: this.#stateMachineArn,
          name,
          input: JSON.stringify(input),
        }),
      );
      return started.executionArn ?? name;
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists) return name;
      throw error;
    }
  }
}

/**
 * The execution's name: the run's id with its dots (a tenant's tag) as `_`, which names allow, or
 * a digest of it when that is too long.
 */
function executionName(run: string): string {
  const name = run.replaceAll('.', '_');
  if (name.length <= MAX_EXECUTION_NAME) return name;
  return `run-${createHash('sha256').update(run).digest('hex').slice(0, 40)}`;
}
