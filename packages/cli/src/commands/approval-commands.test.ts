import { bearerNameTenant, createApi, storedSession } from '@agentstep/api';
import { inMemoryApiDeps, stepIntoApprovals } from '@agentstep/api/testing';
import { submitTurn } from '@agentstep/runtime';
import { readUntil } from '@agentstep/runtime/testing';
import { type ServerType, serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';
import { listeningUrl, type RunningCommand } from '../testing/start-command.js';

let server: ServerType | undefined;

afterEach(() => server?.close());

/** An API on a free port where `pat`'s session `s` has two `echo` calls waiting for approval. */
async function servedApprovals() {
  const deps = inMemoryApiDeps(bearerNameTenant);
  const session = storedSession('pat', 's');
  await submitTurn({ session, turn: 't', prompt: 'Echo twice' }, deps);
  const { approvals } = await stepIntoApprovals(deps, { session, turn: 't' }, [
    ['echo', { text: 'a' }],
    ['echo', { text: 'b' }],
  ]);
  const app = createApi(deps);
  const port = await new Promise<number>((listening) => {
    server = serve(
      { fetch: app.fetch, hostname: '127.0.0.1', port: 0, overrideGlobalObjects: false },
      (info) => listening(info.port),
    );
  });
  const url = `http://127.0.0.1:${port}`;
  /** Runs `agentstep` against that API as `pat`: exit code, stdout and stderr. */
  const agentstep = async (...args: string[]) => {
    const io = memoryIo();
    const status = await main([...args, '--url', url, '--token', 'pat'], io);
    return { status, out: io.out.join(''), err: io.err.join('') };
  };
  return { agentstep, first: approvals[0] ?? '', second: approvals[1] ?? '' };
}

describe('agentstep approvals and approve through a served API', () => {
  it('lists the waiting calls one line each, or as the API’s JSON', async () => {
    const { agentstep, first, second } = await servedApprovals();
    const listed = await agentstep('approvals', 's');
    expect(listed.status).toBe(0);
    const lines = listed.out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^${first.replaceAll('.', '\\.')}  echo \\{"text":"a"\\}  requested \\S+Z, expires \\S+Z$`),
    );
    expect(lines[1]).toContain(`${second}  echo {"text":"b"}`);
    const json = await agentstep('approvals', 's', '--json');
    expect(JSON.parse(json.out)).toEqual({
      approvals: [
        expect.objectContaining({ id: first, tool: 'echo' }),
        expect.objectContaining({ id: second }),
      ],
    });
  });

  it('approves with edited args and denies with a reason, in one sentence or as JSON; then none waits', async () => {
    const { agentstep, first, second } = await servedApprovals();
    expect(await agentstep('approve', 's', first, '--args', '{"text": "edited"}')).toEqual({
      status: 0,
      out: `Approved ${first} with the edited arguments: the call runs now.\n`,
      err: '',
    });
    const denied = await agentstep('approve', 's', second, '--deny', '--reason', 'nope', '--json');
    expect(denied.status).toBe(0);
    expect(JSON.parse(denied.out)).toEqual({ id: second, decision: 'deny' });
    expect((await agentstep('approvals', 's')).out).toBe('No call of session s waits for approval.\n');
  });

  it.each([
    [
      'a decided call',
      (first: string) => ['approve', 's', first, '--deny'],
      /^agentstep approve: AlreadyDecided: Approval .+ is already settled/,
    ],
    [
      'args the tool refuses',
      (first: string) => ['approve', 's', first, '--args', '{"text": 1}'],
      /^agentstep approve: ValidationError: .*\(args\.text: .+\)\n$/,
    ],
    ['an unknown approval', () => ['approve', 's', 'no.such.0'], /^agentstep approve: ApprovalNotFound: /],
    ['an unknown session', () => ['approvals', 'nope'], /^agentstep approvals: SessionNotFound: /],
  ])('refuses %s with exit 1 and one line', async (_, args, line) => {
    const { agentstep, first } = await servedApprovals();
    if (args(first).includes('--deny')) await agentstep('approve', 's', first);
    const refused = await agentstep(...args(first));
    expect(refused.status).toBe(1);
    expect(refused.err).toMatch(line);
    expect(refused.err.trimEnd().split('\n')).toHaveLength(1);
  });
});

/** Stands for a reason over the API's 4,000 characters (kept out of the test's title). */
const LONG_REASON = '<4001 characters>';

describe('agentstep approvals and approve', () => {
  it.each([
    [['approvals'], 'approvals takes one session id.'],
    [['approvals', 's', 't'], 'approvals takes one session id.'],
    [['approve', 's'], 'approve takes a session id and an approval id'],
    [['approve', '../s', 'x'], 'a session id is'],
    [['approve', 's', 'x', '--args', '[1]'], "--args must be a JSON object of the call's arguments"],
    [['approve', 's', 'x', '--args', '{'], 'it is not JSON'],
    [
      ['approve', 's', 'x', '--deny', '--args', '{}'],
      '--args edits the call it approves: it does not go with --deny.',
    ],
    [['approve', 's', 'x', '--reason', LONG_REASON], '--reason: Too big'],
    [['approve', 's', 'x', '--token', 'pat'], '--token goes with --url'],
    [
      ['approve', 's', 'x', '--url', 'http://127.0.0.1:3000', '--tools', 'demo'],
      '--tools is for the local store',
    ],
    [['approvals', 's', '--url', 'localhost:3000'], '--url must be the http(s) address'],
    [['approvals', 's', '--nope'], 'unknown option --nope.'],
    [['approvals', 's', '--agnet', 'a.ts'], 'unknown option --agnet: did you mean --agent?'],
    [
      ['approve', 's', 'x', '--url', 'http://127.0.0.1:3000', '--mcp', 'm=https://m.example/mcp'],
      '--mcp is for the local store',
    ],
  ])('%j is a usage mistake: exit 2, one line and the pointer to --help', async (args, reason) => {
    const io = memoryIo();
    expect(
      await main(
        args.map((arg) => (arg === LONG_REASON ? 'r'.repeat(4001) : arg)),
        io,
      ),
    ).toBe(2);
    const [line, hint, ...rest] = io.err.join('').split('\n');
    expect(line).toContain(reason);
    expect(hint).toBe('Run "agentstep --help" for usage.');
    expect(rest).toEqual(['']);
  });

  it('says in one line, exit 1, that no serve answers at --url', async () => {
    const io = memoryIo();
    expect(await main(['approvals', 's', '--url', 'http://127.0.0.1:9'], io)).toBe(1);
    expect(io.err.join('')).toMatch(
      /^agentstep approvals: ServeUnreachable: nothing answers at http:\/\/127\.0\.0\.1:9 .*\n$/,
    );
  });
});

/** One model step calling `echo` twice, each call waiting for approval, then the answer. */
const ECHO_TWICE = JSON.stringify([
  '<execute>[{"name": "echo", "args": {"text": "one"}}, {"name": "echo", "args": {"text": "two"}}]</execute>',
  'Done.<end>',
]);
const WAITING = /⏸ #\d echo \S+ waits for approval \(id (\S+)\): agentstep approve (\S+) \S+ \[--deny\]/g;

/** The ids of the calls the run's view says wait for approval, once `count` do. */
function waitingIds(run: RunningCommand, count: number): Promise<string[]> {
  return run.waitFor(({ stdout }) => {
    const ids = [...stdout.matchAll(WAITING)].map((match) => match[1] ?? '');
    return ids.length >= count ? ids : undefined;
  });
}

describe('agentstep approvals and approve on the project’s store, while a run waits', () => {
  it('decide the calls another command’s run waits on: one approved with edited args, one denied', async () => {
    const project = memoryProject({ 'echo-twice.json': ECHO_TWICE });
    const agentstep = (...args: string[]) => project.run(args);
    const run = project.start([
      'run',
      '--session',
      'waits',
      '--script',
      'echo-twice.json',
      '--mode',
      'event',
      '--approve',
      'echo',
    ]);
    const [first = '', second = ''] = await waitingIds(run, 2);
    expect(run.stdout()).toContain(`agentstep approve waits ${first} [--deny]`);

    const listed = await agentstep('approvals', 'waits');
    expect(listed.status).toBe(0);
    expect(listed.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${first.replaceAll('.', '\\.')}  echo \\{"text":"one"\\}  requested `),
      ),
      expect.stringMatching(
        new RegExp(`^${second.replaceAll('.', '\\.')}  echo \\{"text":"two"\\}  requested `),
      ),
    ]);
    const json = JSON.parse((await agentstep('approvals', 'waits', '--json')).stdout);
    expect(json.approvals.map((approval: { id: string }) => approval.id)).toEqual([first, second]);

    const refused = await agentstep('approve', 'waits', first, '--args', '{"text": 1}');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^agentstep approve: ValidationError: Invalid arguments for echo: text: .+\n$/,
    );
    expect(await agentstep('approve', 'waits', first, '--args', '{"text": "edited"}')).toMatchObject({
      status: 0,
      stdout: `Approved ${first} with the edited arguments: the call runs now.\n`,
    });
    const denied = await agentstep('approve', 'waits', second, '--deny', '--reason', 'nope', '--json');
    expect(denied.status).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({ id: second, decision: 'deny' });

    expect(await run.exited).toBe(0);
    // Each call counted once, though InvokeTool ran twice for each (before and after its decision).
    expect(run.stdout()).toMatch(
      /\n2 model steps, 2 tool calls, \d+ state transitions in 1 execution, \d+ ms\n/,
    );
    expect(run.stdout()).toMatch(/✓ #0 echo approved by \S+ with \{"text":"edited"\}/);
    expect(run.stdout()).toMatch(/✗ #1 echo denied by \S+: nope/);

    const again = await agentstep('approve', 'waits', first, '--deny');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(
      /^agentstep approve: AlreadyDecided: Approval \S+ is already settled \(approved\)[^\n]*\n$/,
    );
    expect((await agentstep('approvals', 'waits')).stdout).toBe(
      'No call of session waits waits for approval.\n',
    );

    const events = jsonLines((await agentstep('events', 'waits', '--json')).stdout);
    const result = events.find((event) => event.type === 'result');
    expect(JSON.parse(String(result?.content))).toEqual([
      { tool: 'echo', status: 'success', content: 'edited' },
      { tool: 'echo', status: 'failure', content: 'denied: nope' },
    ]);
    expect(events.filter((event) => event.type === 'approval').map((event) => event.payload)).toEqual([
      expect.objectContaining({ id: first, status: 'requested' }),
      expect.objectContaining({ id: second, status: 'requested' }),
      expect.objectContaining({ id: first, status: 'approved', args: { text: 'edited' } }),
      expect.objectContaining({ id: second, status: 'denied', reason: 'nope' }),
    ]);
  });

  it('refuse a session that does not exist and an unknown approval in one line, exit 1', async () => {
    const project = memoryProject({ 'echo-twice.json': ECHO_TWICE });
    const missing = await project.run(['approvals', 'no-such-session']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      /^agentstep approvals: SessionNotFound: Session no-such-session has no events in .+\n$/,
    );
    await project.run(['run', '--session', 'ran', '--script', 'echo-twice.json']);
    const unknown = await project.run(['approve', 'ran', 'no.such.0']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^agentstep approve: ApprovalNotFound: .+`agentstep approvals ran` lists/);
  });

  it('a run whose calls nobody decides in --approval-timeout says they expired', async () => {
    const project = memoryProject({ 'echo-twice.json': ECHO_TWICE });
    const { status, stdout } = await project.run([
      ...['run', '--session', 'expires', '--script', 'echo-twice.json', '--mode', 'event'],
      ...['--approve', 'echo', '--approval-timeout', '1'],
    ]);
    expect(status).toBe(0);
    expect(stdout.match(/⌛ #\d echo expired: nobody decided in time/g)).toHaveLength(2);
  });
});

/** The fields of the API's answers this test reads. */
type ApiBody = { session?: string; status?: string; events?: Array<{ type: string; payload?: object }> };

describe('agentstep approvals and approve --url on an agentstep serve', () => {
  it('list and decide as the bearer tenant; the turn ends with both results', async () => {
    const project = memoryProject({ 'echo-twice.json': ECHO_TWICE });
    const serving = project.start([
      'serve',
      '--port',
      '0',
      '--auth',
      'dev',
      '--script',
      'echo-twice.json',
      '--approve',
      'echo',
    ]);
    try {
      const url = await serving.waitFor(listeningUrl);
      const api = async (path: string, tenant: string, init: RequestInit = {}): Promise<ApiBody> => {
        const headers = { authorization: `Bearer ${tenant}`, 'content-type': 'application/json' };
        return (await (await fetch(`${url}${path}`, { ...init, headers })).json()) as ApiBody;
      };
      const { session = '' } = await api('/sessions', 'alice', {
        method: 'POST',
        body: JSON.stringify({ message: 'Echo' }),
      });
      const asTenant = (tenant: string, ...args: string[]) =>
        project.run([...args, '--url', url, '--token', tenant]);
      const listed = async () =>
        (
          JSON.parse((await asTenant('alice', 'approvals', session, '--json')).stdout).approvals as Array<{
            id: string;
          }>
        ).map(({ id }) => id);
      const waiting = await readUntil(listed, (ids) => ids.length === 2);
      const [first = '', second = ''] = waiting;
      const asBob = await asTenant('bob', 'approve', session, first);
      expect(asBob.status).toBe(1);
      expect(asBob.stderr).toMatch(/^agentstep approve: SessionNotFound: /);
      expect((await asTenant('alice', 'approve', session, first)).status).toBe(0);
      const denied = await asTenant('alice', 'approve', session, second, '--deny');
      expect(denied.stdout).toBe(`Denied ${second}: the model reads the denial.\n`);
      await readUntil(
        async () => (await api(`/sessions/${session}`, 'alice')).status,
        (status) => status === 'idle',
      );
      const { events = [] } = await api(`/sessions/${session}/events`, 'alice');
      const approvals = events.filter((event) => event.type === 'approval');
      expect(approvals.map((event) => event.payload)).toEqual([
        expect.objectContaining({ status: 'requested' }),
        expect.objectContaining({ status: 'requested' }),
        expect.objectContaining({ id: first, status: 'approved', by: 'alice' }),
        expect.objectContaining({ id: second, status: 'denied', by: 'alice' }),
      ]);
    } finally {
      serving.stop();
    }
    expect(await serving.exited).toBe(0);
  });
});
