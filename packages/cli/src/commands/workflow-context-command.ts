import { documentSeen, runLogOf } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';

/**
 * `workflow context RUN GOAL`: prints, byte for byte, the document GOAL's latest run saw as its
 * user message (GOAL may be `goal[agent]` for a USING agent's task). Exit 1 when the run or the
 * goal's run does not exist.
 */
export async function workflowContextCommand(args: string[], io: CliIo): Promise<number> {
  const [run, goal, ...rest] = args;
  if (run === undefined || goal === undefined || rest.length > 0)
    throw new UsageError('workflow context takes a run and a goal: workflow context RUN GOAL.');
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const log = runLogOf(run, await store.log.read(run));
    if (log === undefined) {
      io.stderr(`agentstep workflow context: there is no workflow run ${run} in ${io.dataDir}.\n`);
      return 1;
    }
    const document = await documentSeen(log, goal, store.log);
    if (document === undefined) {
      io.stderr(`agentstep workflow context: goal ${goal} of run ${run} has not run.\n`);
      return 1;
    }
    io.stdout(document);
    return 0;
  } finally {
    await store.close();
  }
}
