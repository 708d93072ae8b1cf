import { buildMessages } from '@agentstep/protocol';
import type { CliIo } from '../io/cli-io.js';
import { parseSessionArgs } from '../local/parse-session-args.js';
import { readSessionLog } from '../local/read-session-log.js';

/** `agentstep context ID`: the messages the model would see next, rebuilt from the log, as JSON. */
export async function contextCommand(args: string[], io: CliIo): Promise<number> {
  const { session } = parseSessionArgs('context', args);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const events = await readSessionLog('context', session, store.log, io);
    if (events === undefined) return 1;
    io.stdout(`${JSON.stringify(buildMessages(events), null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
