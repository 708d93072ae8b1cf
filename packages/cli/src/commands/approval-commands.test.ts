import { bearerNameTenant, createApi, storedSession } from '@agentstep/api';
import { inMemoryApiDeps, stepIntoApprovals } from '@agentstep/api/testing';
import { submitTurn } from '@agentstep/runtime';
import { type ServerType, serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';

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
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => listening(info.port));
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
    [['approvals', 's', '--nope'], "Unknown option '--nope'"],
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
