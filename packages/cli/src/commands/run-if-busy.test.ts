import { describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';
import type { RunningCommand } from '../testing/start-command.js';

/** Every turn: one echo, then an answer. */
const ECHO_ONCE = JSON.stringify([
  '<execute>[{"name": "echo", "args": {"text": "one"}}]</execute>',
  'Done.<end>',
]);
/** A call's id in the live view's "… waits for approval (id ID)" line. */
const WAITING = /waits for approval \(id (\S+)\)/;

/** A project whose run of session `s` waits for its echo's approval; with the id it waits on. */
async function busySession() {
  const project = memoryProject({ 'echo.json': ECHO_ONCE });
  const held = project.start([
    'run',
    'First',
    '--session',
    's',
    '--script',
    'echo.json',
    '--approve',
    'echo',
  ]);
  const waiting = await held.waitFor(({ stdout }) => WAITING.exec(stdout)?.[1]);
  const userMessages = async () =>
    jsonLines((await project.run(['events', 's', '--json'])).stdout).flatMap((event) =>
      event.type === 'user' ? [event.content] : [],
    );
  return { project, held, waiting, userMessages };
}

/** Resolves once the command has printed `text` on stderr. */
const said = (run: RunningCommand, text: string) =>
  run.waitFor(({ stderr }) => (stderr.includes(text) ? true : undefined));

describe('agentstep run --if-busy', () => {
  it('enqueue: waits for the running turn to end, then runs its own', async () => {
    const { project, held, waiting, userMessages } = await busySession();
    const queued = project.start([
      'run',
      'Second',
      '--session',
      's',
      '--script',
      'echo.json',
      '--if-busy',
      'enqueue',
    ]);
    await said(queued, 'is busy: turn');
    expect(await userMessages()).toEqual(['First']);
    expect((await project.run(['approve', 's', waiting])).status).toBe(0);
    expect(await held.exited).toBe(0);
    expect(await queued.exited).toBe(0);
    expect(await userMessages()).toEqual(['First', 'Second']);
  });

  it('interrupt: cancels the running turn and runs its own at once', async () => {
    const { project, held, userMessages } = await busySession();
    const interrupting = await project.run([
      'run',
      'Instead',
      '--session',
      's',
      '--script',
      'echo.json',
      '--if-busy',
      'interrupt',
    ]);
    expect(interrupting.status).toBe(0);
    expect(await held.exited).toBe(130);
    expect(await userMessages()).toEqual(['First', 'Instead']);
  });

  it('reject stays the default: SessionBusy, exit 1; a value it does not know is a usage error', async () => {
    const { project, held, waiting } = await busySession();
    const refused = await project.run(['run', 'Again', '--session', 's', '--script', 'echo.json']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('SessionBusy');
    const wrong = await project.run(['run', 'Again', '--session', 's', '--if-busy', 'wait']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--if-busy must be "reject", "enqueue" or "interrupt"');
    expect((await project.run(['run', '--help'])).stdout).toContain('--if-busy reject|enqueue|interrupt');
    await project.run(['approve', 's', waiting]);
    expect(await held.exited).toBe(0);
  });
});
