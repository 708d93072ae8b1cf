import type { NewEvent } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';

const timestamp = 1_700_000_000;
const COMPACTED = {
  type: 'compacted' as const,
  content: 'Compacted the context before step t.2: events 1–3 summarized by openai:gpt-4o.',
  timestamp,
  payload: {
    upToSeq: 3,
    summary: 'The user asked for a check; it ran.',
    tokensBefore: 7950,
    tokensAfter: 1830,
    model: 'openai:gpt-4o',
    strategy: 'summarize' as const,
    turns: 1,
    calls: 1,
  },
};

/** A project whose session `s` holds one turn compacted between its two model steps. */
async function compactedSession() {
  const project = memoryProject();
  const { log } = project.store;
  await log.acquireTurn('s', 't');
  const append = (key: string, events: NewEvent[], release = false) =>
    log.append({ session: 's', turn: 't', key, events, release });
  const result = {
    type: 'result' as const,
    content: JSON.stringify([{ tool: 'echo', status: 'success', content: 'ok' }]),
    payload: { tools_executed: 1, success_count: 1, failure_count: 0 },
    timestamp,
  };
  await append('user', [{ event: { type: 'user', content: 'Check', timestamp } }]);
  await append('model:t.1', [
    { batch: 't.1', position: 0, event: { type: 'call', content: '{"name":"echo","args":{}}', timestamp } },
  ]);
  await append('results:t.1', [{ batch: 't.1', event: result }]);
  await append('compaction', [{ event: COMPACTED }]);
  await append('model:t.2', [{ batch: 't.2', event: { type: 'respond', content: 'Checked.', timestamp } }]);
  const end = {
    type: 'turn_end' as const,
    content: 'The turn finished.',
    timestamp,
    payload: { turn: 't', status: 'done' as const },
  };
  await append('end', [{ event: end }], true);
  return project;
}

describe('agentstep events', () => {
  it('lists a compaction in its place, with its line for people', async () => {
    const { status, stdout } = await (await compactedSession()).run(['events', 's']);
    expect(status).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.slice(5, 14))).toEqual([
      'user     ',
      'call     ',
      'result   ',
      'compacted',
      'respond  ',
      'turn_end ',
    ]);
    expect(lines[3]).toBe(`   4 compacted  ${COMPACTED.content}`);
  });

  it('--json prints it whole, its summary and figures with it', async () => {
    const { stdout } = await (await compactedSession()).run(['events', 's', '--json']);
    expect(jsonLines(stdout)[3]).toEqual({ seq: 4, ...COMPACTED });
  });
});
