import { resultEvent, type StoredEvent } from '../src/index.js';

/**
 * A realistic session log of about `count` events: turns of a user message, a think, a prose line,
 * a three-call batch and its result, and a final answer.
 */
export function sessionLog(count: number): StoredEvent[] {
  const events: StoredEvent[] = [];
  const add = (event: StoredEvent['event'], batch?: string, position?: number) =>
    events.push({
      session: 'bench',
      seq: events.length,
      ...(batch === undefined ? {} : { batch }),
      ...(position === undefined ? {} : { position }),
      event,
    });
  for (let turn = 0; events.length < count; turn++) {
    const batch = `t${turn}-s1`;
    add({ type: 'user', content: `Question ${turn}: what changed in module ${turn}?`, timestamp: turn });
    add(
      { type: 'think', content: 'I will read the three files it touches, together.', timestamp: turn },
      batch,
    );
    add({ type: 'respond', content: 'Reading the files.', timestamp: turn }, batch);
    for (let position = 0; position < 3; position++) {
      const content = JSON.stringify({
        name: 'read',
        args: { file: `src/module-${turn}/file-${position}.ts` },
      });
      add({ type: 'call', content, payload: { index: position }, timestamp: turn }, batch, position);
    }
    const outcomes = [0, 1, 2].map((position) => ({
      tool: 'read',
      status: 'success' as const,
      content: `export const value${position} = ${turn}; // ${'x'.repeat(200)}`,
    }));
    add({ ...resultEvent(outcomes), timestamp: turn }, batch);
    add(
      { type: 'respond', content: `Module ${turn} now exports three values.`, timestamp: turn },
      `t${turn}-s2`,
    );
  }
  return events.slice(0, count);
}
