import type { WorkflowRecord } from '@agentstep/protocol';
import { type EventLog, InMemoryEventLog } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { watchWorkflow } from './workflow-run-view.js';

const RUN = 'wf-1';
const slot = { slot: 'edit.publish', goal: 'publish', attempt: 0 };

function append(log: EventLog, key: string, payload: WorkflowRecord, content = '') {
  return log.append({
    session: RUN,
    turn: RUN,
    key,
    events: [{ event: { type: 'workflow', timestamp: 1, payload, content } }],
  });
}

describe('watchWorkflow', () => {
  it('shows each record once, in log order: its own appends as they land, another process’s when the run reads', async () => {
    const store = new InMemoryEventLog();
    await store.acquireTurn(RUN, RUN);
    const lines: string[] = [];
    const watched = watchWorkflow(RUN, (line) => lines.push(line))(store);
    await append(watched, 'k1', { kind: 'gate', ...slot, gate: 'g1', status: 'waiting' }, 'OK?');
    // Another process answers the gate through the shared store.
    await append(store, 'k2', { kind: 'gate', ...slot, gate: 'g1', status: 'approved', by: 'ann' });
    expect(lines).toHaveLength(1);
    await watched.read(RUN);
    await watched.read(RUN);
    await append(watched, 'k3', { kind: 'end', status: 'done' }, 'All 1 goal runs completed.');
    expect(lines).toEqual([
      `? goal publish waits for a person: agentstep workflow gate ${RUN} g1 --approve | --correct TEXT | --abort\n`,
      '  gate g1 approved by ann\n',
      'workflow done: All 1 goal runs completed.\n',
    ]);
  });
});
