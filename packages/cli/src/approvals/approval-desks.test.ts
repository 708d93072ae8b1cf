import { bearerNameTenant, createApi, storedSession } from '@agentstep/api';
import { inMemoryApiDeps, stepIntoApprovals } from '@agentstep/api/testing';
import { submitTurn } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import type { ApprovalDesk } from './approval-desk.js';
import { LocalApprovalDesk } from './local-approval-desk.js';
import { ServedApprovalDesk } from './served-approval-desk.js';

/** A session `s` whose running turn has one `echo` call waiting for approval, on either desk. */
type Waiting = { desk: ApprovalDesk; approval: string; woken: () => unknown[] };

/** The local store's desk, deciding as the OS user `pat`. */
async function localDesk(): Promise<Waiting> {
  const deps = inMemoryApiDeps(bearerNameTenant);
  await submitTurn({ session: 's', turn: 't', prompt: 'Echo' }, deps);
  const { approvals } = await stepIntoApprovals(deps, { session: 's', turn: 't' }, [['echo', { text: 'a' }]]);
  const desk = new LocalApprovalDesk({
    ...deps,
    by: 'pat',
    dataDir: '/project/.agentstep',
    close: async () => {},
  });
  return { desk, approval: approvals[0] ?? '', woken: () => deps.taskTokens.sent };
}

/** A served API's desk (the app's own fetch), acting for the tenant `pat`. */
async function servedDesk(): Promise<Waiting> {
  const deps = inMemoryApiDeps(bearerNameTenant);
  const session = storedSession('pat', 's');
  await submitTurn({ session, turn: 't', prompt: 'Echo' }, deps);
  const { approvals } = await stepIntoApprovals(deps, { session, turn: 't' }, [['echo', { text: 'a' }]]);
  const app = createApi(deps);
  const fetch: typeof globalThis.fetch = async (input, init) => app.fetch(new Request(input, init));
  const desk = new ServedApprovalDesk({ url: 'http://agentstep.test', token: 'pat' }, fetch);
  return { desk, approval: approvals[0] ?? '', woken: () => deps.taskTokens.sent };
}

describe.each([
  ['LocalApprovalDesk', localDesk],
  ['ServedApprovalDesk', servedDesk],
])('%s', (_, waiting) => {
  it('lists the waiting call in the API shape, decides it once with edited args, and wakes its task', async () => {
    const { desk, approval, woken } = await waiting();
    expect(await desk.pending('s')).toEqual({
      approvals: [
        {
          id: approval,
          tool: 'echo',
          args: { text: 'a' },
          batch: expect.any(String),
          position: 0,
          requestedAt: expect.stringMatching(/Z$/),
          expiresAt: expect.stringMatching(/Z$/),
        },
      ],
    });
    const decided = await desk.decide('s', approval, { decision: 'approve', args: { text: 'b' } });
    expect(decided).toEqual({ id: approval, decision: 'approve' });
    expect(woken()).toEqual([{ token: 'token-0', output: { approval } }]);
    expect(await desk.pending('s')).toEqual({ approvals: [] });
    await expect(desk.decide('s', approval, { decision: 'deny' })).rejects.toMatchObject({
      name: 'AlreadyDecided',
    });
  });

  it('refuses edited args the tool refuses, naming the field, and the call still waits', async () => {
    const { desk, approval } = await waiting();
    const refused = desk.decide('s', approval, { decision: 'approve', args: { text: 1 } });
    await expect(refused).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('text'),
    });
    expect((await desk.pending('s')).approvals).toHaveLength(1);
  });

  it('refuses an unknown approval with ApprovalNotFound, saying how to list them', async () => {
    const { desk } = await waiting();
    await expect(desk.decide('s', 't.9.0', { decision: 'approve' })).rejects.toMatchObject({
      name: 'ApprovalNotFound',
      message: expect.stringMatching(/approvals/),
    });
  });

  it('refuses a session that does not exist with SessionNotFound', async () => {
    const { desk } = await waiting();
    await expect(desk.pending('nope')).rejects.toMatchObject({ name: 'SessionNotFound' });
    await expect(desk.decide('nope', 'x', { decision: 'deny' })).rejects.toMatchObject({
      name: 'SessionNotFound',
    });
  });
});

describe('ServedApprovalDesk', () => {
  it('says in one line that nothing answers at the address', async () => {
    const desk = new ServedApprovalDesk({ url: 'http://127.0.0.1:9' });
    await expect(desk.pending('s')).rejects.toMatchObject({
      name: 'ServeUnreachable',
      message: expect.stringMatching(
        /^nothing answers at http:\/\/127\.0\.0\.1:9 \(.+\): start `agentstep serve`/,
      ),
    });
  });
});
