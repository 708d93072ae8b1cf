import { describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';

/** The demo turn's events: its turn_start at seq 2, a batch of three calls ends at seq 8, a second batch at 11, the turn at 13. */
async function projectWithDemoTurn() {
  const project = memoryProject();
  expect((await project.run(['run', 'Check things', '--session', 'kept'])).status).toBe(0);
  const logOf = async (session: string) =>
    jsonLines((await project.run(['events', session, '--json'])).stdout);
  return { project, logOf };
}

describe('agentstep fork', () => {
  it("starts a session sharing the log up to a batch's results; its next run goes on from there, the original untouched", async () => {
    const { project, logOf } = await projectWithDemoTurn();
    const kept = await logOf('kept');
    const forked = await project.run(['fork', 'kept', '--at', '8', '--session', 'branch', '--json']);
    expect(forked).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(forked.stdout)).toEqual({ session: 'branch', forkedFrom: { session: 'kept', seq: 8 } });
    expect(await logOf('branch')).toEqual(kept.slice(0, 8));
    expect((await project.run(['run', 'Go on', '--session', 'branch'])).status).toBe(0);
    const branch = await logOf('branch');
    expect(branch.slice(0, 10).map((event) => [event.seq, event.type])).toEqual([
      ...kept.slice(0, 8).map((event) => [event.seq, event.type]),
      [9, 'user'],
      [10, 'turn_start'],
    ]);
    expect(branch[8]?.content).toBe('Go on');
    expect(branch.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'done' } });
    expect(await logOf('kept')).toEqual(kept);
    // A fork of the fork, at its turn's end, reads through both.
    const twig = await project.run([
      'fork',
      'branch',
      '--at',
      String(branch.at(-1)?.seq),
      '--session',
      'twig',
    ]);
    expect(twig).toMatchObject({
      status: 0,
      stdout: `Forked branch at seq ${branch.at(-1)?.seq} into session twig.\n`,
    });
    expect(await logOf('twig')).toEqual(branch);
  });

  it('names the nearest allowed seqs, exit 1, for a point inside a step', async () => {
    const { project } = await projectWithDemoTurn();
    const { status, stderr } = await project.run(['fork', 'kept', '--at', '9']);
    expect(status).toBe(1);
    expect(stderr).toContain('cannot be forked at seq 9');
    expect(stderr).toContain('the nearest such seqs are 8 and 11');
  });

  it('refuses a new id that names an existing session or a fork that has run a turn, exit 1, and a missing --at, exit 2', async () => {
    const { project } = await projectWithDemoTurn();
    await project.run(['fork', 'kept', '--at', '13', '--session', 'taken']);
    const again = await project.run(['fork', 'kept', '--at', '8', '--session', 'taken']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('Session taken already exists');
    // The same fork again is a retry while the fork is untouched, and refused once it has run a turn.
    await project.run(['fork', 'kept', '--at', '8', '--session', 'branch']);
    expect((await project.run(['fork', 'kept', '--at', '8', '--session', 'branch'])).status).toBe(0);
    expect((await project.run(['run', 'Go on', '--session', 'branch'])).status).toBe(0);
    const used = await project.run(['fork', 'kept', '--at', '8', '--session', 'branch']);
    expect(used.status).toBe(1);
    expect(used.stderr).toContain('Session branch already exists');
    const usage = await project.run(['fork', 'kept']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('fork needs --at SEQ');
  });
});
