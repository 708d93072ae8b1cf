import type { WorkflowStarter } from '@agentstep/runtime';

/** A {@link WorkflowStarter} whose runs never execute: each run started is recorded in `started`, in order. */
export class RecordingWorkflowStarter implements WorkflowStarter {
  readonly started: string[] = [];

  async start(run: string): Promise<string> {
    this.started.push(run);
    return run;
  }
}
