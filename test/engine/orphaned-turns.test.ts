import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecutionOwners, LocalExecutionStarter } from '@agentstep/local';
import { beginTurn, systemClock } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { batch, heldCalls, localAgent, resultItems } from '../support/harness.js';

/** The pid of a process that has ended: no process runs under it now. */
function deadPid(): number {
  const ended = spawnSync(process.execPath, ['-e', '']);
  return ended.pid ?? 0;
}

/** A turn begun by a starter that records `owner` as running it, its one call held until the test ends. */
async function turnOwnedBy(owner: { pid: number; instance: string }) {
  const held = heldCalls();
  const agent = await localAgent({
    storage: 'memory',
    script: [batch(['hold', { value: 'late' }]), 'Never.'],
    tools: [held.tool],
  });
  const folder = mkdtempSync(join(tmpdir(), 'agentstep-owners-'));
  const deps = { ...agent.stores, clock: systemClock };
  const owners = new ExecutionOwners(folder, { owner });
  const first = new LocalExecutionStarter(agent.engine, deps, { owners });
  const begun = await beginTurn({ prompt: 'Go' }, { ...deps, starter: first });
  await held.started(['late']);
  // The next process on the store: its own owners' record in the same folder.
  const next = new LocalExecutionStarter(agent.engine, deps, { owners: new ExecutionOwners(folder) });
  return { agent, begun, first, next, owners };
}

describe('turns whose execution no live process runs', () => {
  it('are closed by the next starter at once: failed, each open call answered, the session free', async () => {
    const pid = deadPid();
    const { agent, begun, first, next, owners } = await turnOwnedBy({ pid, instance: 'gone' });
    expect(await next.closeOrphans()).toEqual([{ session: begun.session, turn: begun.turn }]);
    const events = await agent.stores.log.read(begun.session);
    expect(events.map(({ event }) => event.type)).toEqual(['user', 'call', 'result', 'turn_end']);
    const call = events.find(({ event }) => event.type === 'call');
    expect(resultItems(events, call?.batch ?? '')).toEqual([
      expect.objectContaining({
        tool: 'hold',
        status: 'failure',
        content: expect.stringContaining(`pid ${pid}`),
      }),
    ]);
    expect(events.at(-1)?.event).toMatchObject({ payload: { status: 'failed', turn: begun.turn } });
    expect(await agent.stores.log.holder(begun.session)).toBeUndefined();
    expect(owners.list()).toEqual([]);
    expect(agent.engine.eventBus.events).toEqual([
      expect.objectContaining({
        detailType: 'Agent Turn Failed',
        detail: expect.objectContaining({ turn: begun.turn }),
      }),
    ]);
    await first.stop(begun);
  });

  it('are left alone while their owner lives, and a second sweep closes nothing twice', async () => {
    const { agent, begun, first, next, owners } = await turnOwnedBy({
      pid: process.ppid,
      instance: 'parent',
    });
    expect(await next.closeOrphans()).toEqual([]);
    expect((await agent.stores.log.holder(begun.session))?.turn).toBe(begun.turn);
    expect(owners.list()).toHaveLength(1);
    await first.stop(begun);
    await expect(first.finished(begun.execution)).rejects.toThrow();
    // Its own starter closed it, and forgot it.
    expect(owners.list()).toEqual([]);
    expect(await next.closeOrphans()).toEqual([]);
  });
});
