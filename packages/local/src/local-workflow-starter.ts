import type { WorkflowExecutionInput } from '@agentstep/protocol';
import type { WorkflowStarter } from '@agentstep/runtime';
import { type LocalEngine, WORKFLOW_STATE_MACHINE } from './local-engine.js';

/**
 * A {@link WorkflowStarter} on the local engine: a start runs the run's workflow execution in this
 * process, in the background (its end is in the run's log); a run already going here is not
 * started again. A run whose process stopped resumes with `agentstep workflow resume`.
 */
export class LocalWorkflowStarter implements WorkflowStarter {
  readonly #engine: LocalEngine;
  readonly #going = new Set<string>();

  constructor(engine: LocalEngine) {
    this.#engine = engine;
  }

  async start(run: string): Promise<string> {
    const id = `local:${run}`;
    if (this.#going.has(run)) return id;
    this.#going.add(run);
    const input: WorkflowExecutionInput = { run };
    // A run that fails ends in its log (its `end` record); never an unhandled rejection here.
    this.#engine
      .execute(WORKFLOW_STATE_MACHINE, input)
      .catch(() => {})
      .finally(() => this.#going.delete(run));
    return id;
  }
}
