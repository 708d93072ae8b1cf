import { LocalTaskTokens } from '@agentstep/local';
import { decideGate, type GateDecision, systemClock } from '@agentstep/runtime';
import { localUserName } from '../approvals/local-user-name.js';
import type { CliIo } from '../io/cli-io.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/**
 * `workflow gate RUN GATE (--approve | --correct TEXT | --abort)`: answers a human gate of a run
 * on the local store, and the run goes on in whichever shell it runs. Exit 1 when the run has no
 * such gate or it was answered already.
 */
export async function workflowGateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      approve: { type: 'boolean', default: false },
      correct: { type: 'string' },
      abort: { type: 'boolean', default: false },
    },
  });
  const [run, gate, ...rest] = positionals;
  if (run === undefined || gate === undefined || rest.length > 0)
    throw new UsageError('workflow gate takes a run and a gate: workflow gate RUN GATE --approve.');
  const decision = decisionOf(values);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    // No task waits in this process: the completion reaches the waiting run through the store.
    const taskTokens = new LocalTaskTokens(store.completions);
    await decideGate(
      { run, gate, by: localUserName(), ...decision },
      { ...store, taskTokens, clock: systemClock },
    );
    io.stdout(`Gate ${gate} of run ${run}: ${decision.decision}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function decisionOf(values: {
  approve: boolean;
  correct?: string;
  abort: boolean;
}): Pick<GateDecision, 'decision' | 'text'> {
  const chosen = [values.approve, values.correct !== undefined, values.abort].filter(Boolean).length;
  if (chosen !== 1)
    throw new UsageError('workflow gate needs exactly one of --approve, --correct TEXT, --abort.');
  if (values.correct !== undefined) {
    if (values.correct.trim() === '') throw new UsageError('--correct needs the correction text.');
    return { decision: 'correct', text: values.correct };
  }
  return { decision: values.approve ? 'approve' : 'abort' };
}
