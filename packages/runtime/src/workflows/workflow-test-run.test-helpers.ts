import {
  type AdvanceWorkflowInput,
  type GoalTurn,
  type ModelStepOutput,
  parseAgentfile,
  type WorkflowRecord,
  type WorkflowSpec,
  type WorkflowState,
} from '@agentstep/protocol';
import type { TaskTokens } from '../approvals/task-tokens.js';
import { inMemoryStores } from '../in-memory-stores.js';
import { GoalScriptedModel, type GoalScripts } from '../model/goal-scripted-model.js';
import { failTurn } from '../steps/fail-turn.js';
import { finishTurn } from '../steps/finish-turn.js';
import { modelStep } from '../steps/model-step.js';
import { startTurn } from '../steps/start-turn.js';
import { userMessageKey } from '../steps/submit-turn.js';
import { advanceWorkflow } from './advance-workflow.js';
import { type Logged, type RunLog, recordsOf, runLogOf } from './run-log.js';
import { startWorkflow } from './start-workflow.js';

/** The workflow execution every advance runs in, unless a test names another (a redriven run). */
export const EXECUTION = 'execution-1';

/** The spec an Agentfile states; throws with the parser's problems when it states none. */
function workflowSpec(agentfile: string): WorkflowSpec {
  const parsed = parseAgentfile(agentfile);
  if (!parsed.ok) throw new Error(`The test's Agentfile is invalid: ${JSON.stringify(parsed.errors)}`);
  return parsed.spec;
}

/** Task tokens that record what a decision sent, as Step Functions would receive it. */
class RecordingTaskTokens implements TaskTokens {
  readonly sent: Array<{ token: string; output: unknown }> = [];
  async sendTaskSuccess(token: string, output: unknown): Promise<void> {
    this.sent.push({ token, output });
  }
}

/**
 * A workflow run on in-memory stores, driven as the workflow state machine drives it: `advance` is
 * AdvanceWorkflow from the state the last advance left; `finish` runs one planned goal turn through
 * the agent loop's own steps (StartTurn, ModelStep on a GoalScriptedModel, FinishTurn; a model that
 * throws ends it through FailTurn, as the agent state machine's Catch does), so child sessions hold
 * exactly what the loop writes. Every goal answers in one model step.
 */
export function workflowTestRun(agentfile: string, scripts: GoalScripts = {}) {
  const clock = { now: () => 1_700_000_000_000 };
  const stores = inMemoryStores();
  const model = new GoalScriptedModel(scripts);
  const taskTokens = new RecordingTaskTokens();
  const deps = { ...stores, clock, model, taskTokens, tools: [], targetOf: () => 'tools' };
  const run = 'wf-test';
  let state: AdvanceWorkflowInput['state'] = { run };

  async function finish({ session, turn, maxSteps }: GoalTurn): Promise<void> {
    let step: ModelStepOutput;
    try {
      step = await modelStep(await startTurn({ session, turn, maxSteps }, deps), deps);
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      await failTurn({ session, turn, error: { Error: name, Cause: message } }, deps);
      return;
    }
    if (step.next !== 'finish')
      throw new Error(`Goal turn ${turn} asked for tools: script one-step answers.`);
    await finishTurn({ session, turn, maxSteps, next: step.next }, deps);
  }

  async function advance(from = state, execution = EXECUTION): Promise<WorkflowState> {
    const next = await advanceWorkflow({ state: from, execution }, deps);
    state = next;
    return next;
  }

  async function runLog(): Promise<RunLog> {
    const log = runLogOf(run, await stores.log.read(run));
    if (log === undefined) throw new Error(`Workflow run ${run} has not started.`);
    return log;
  }

  return {
    run,
    deps,
    model,
    taskTokens,
    /** StartWorkflow with the Agentfile's spec and these inputs. */
    start: (inputs: Record<string, string> = {}) =>
      startWorkflow({ run, spec: workflowSpec(agentfile), inputs }, deps),
    advance,
    finish,
    /** Advances, finishing every planned goal turn in plan order, until the run waits at a gate or ends. */
    async settle(): Promise<WorkflowState> {
      for (let next = await advance(); ; next = await advance()) {
        if (next.goals === undefined) return next;
        for (const goal of next.goals) await finish(goal);
      }
    },
    runLog,
    /** The run's records of one kind, in log order. */
    records: async <K extends WorkflowRecord['kind']>(kind: K): Promise<Array<Logged<K>>> =>
      recordsOf(await runLog(), kind),
    /** Each child run in start order, with the user message its turn was submitted with. */
    async runs() {
      const started = recordsOf(await runLog(), 'run');
      return Promise.all(
        started.map(async ({ record }) => {
          const appended = await stores.log.appended(record.session, userMessageKey(record.turn));
          const events = await stores.log.read(record.session);
          const user = events.find(({ seq }) => seq === appended?.firstSeq);
          return { ...record, message: user?.event.content ?? '' };
        }),
      );
    },
  };
}
