import { loggedEvent, type StoredEvent } from '@agentstep/protocol';
import type { CliIo } from '../io/cli-io.js';
import { parseSessionArgs } from '../local/parse-session-args.js';
import { readSessionLog } from '../local/read-session-log.js';

const PREVIEW = 160;

/** `agentstep events ID [--json]`: a session's log, whole (`--json`: one event per line with its seq). */
export async function eventsCommand(args: string[], io: CliIo): Promise<number> {
  const { session, json } = parseSessionArgs('events', args);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const events = await readSessionLog('events', session, store.log, io);
    if (events === undefined) return 1;
    for (const stored of events)
      io.stdout(`${json ? JSON.stringify(loggedEvent(stored)) : describe(stored)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function describe({ seq, batch, position, event }: StoredEvent): string {
  const where = batch === undefined ? '' : ` ${batch}${position === undefined ? '' : `#${position}`}`;
  const content =
    event.type === 'turn_end' ? `[${event.payload.status}] ${event.content}` : (event.content ?? '');
  const preview =
    content.length > PREVIEW ? `${content.slice(0, PREVIEW)}… (${content.length} characters)` : content;
  return `${String(seq).padStart(4)} ${event.type.padEnd(9)}${where}  ${preview.replaceAll('\n', '⏎')}`;
}
