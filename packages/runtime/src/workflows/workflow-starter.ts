/**
 * Starts a workflow run's execution once its `start` record is in its log (see `startWorkflow`):
 * on Step Functions an execution of the workflow state machine, locally one on the embedded engine.
 * Starting the same run twice starts one execution.
 */
export interface WorkflowStarter {
  /** Starts the run's execution and returns its id. */
  start(run: string): Promise<string>;
}
