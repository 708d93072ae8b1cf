import type { WorkflowAccepted, WorkflowRecord } from '@agentstep/protocol';
import { tenantTag } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { bearerNameTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps, RecordingWorkflowStarter } from './testing/index.js';

const AGENTFILE = `NAME trip
INPUT city DEFAULT Lisbon
INPUT days
GOAL plan "Plan $days days in $city." -> route
RUN main USING plan
`;

/** The API on in-memory stores, a caller per tenant, and the runs it started (none execute). */
function api() {
  const workflows = new RecordingWorkflowStarter();
  const deps = { ...inMemoryApiDeps(bearerNameTenant), workflows, pollMs: 10, streamLimitMs: 200 };
  const app = createApi(deps);
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    tenant = 'alice',
    headers: Record<string, string> = {},
  ) => {
    const response = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${tenant}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return { status: response.status, body: json ? JSON.parse(text) : text };
  };
  /** Appends records to `alice`'s run as the run itself would. */
  const append = async (run: string, key: string, ...records: Array<[WorkflowRecord, string]>) => {
    const stored = storedSession('alice', run);
    await deps.log.append({
      session: stored,
      turn: stored,
      key,
      events: records.map(([payload, content]) => ({
        event: { type: 'workflow' as const, timestamp: 1, payload, content },
      })),
    });
  };
  return { deps, workflows, request, append };
}

async function started(given = api(), body: unknown = { agentfile: AGENTFILE, inputs: { days: '3' } }) {
  const { status, body: accepted } = await given.request('POST', '/workflows', body);
  expect(status).toBe(202);
  return { ...given, run: (accepted as WorkflowAccepted).run, accepted };
}

const planGoal = { slot: 'main.plan', goal: 'plan', attempt: 0 };

describe('the workflow routes', () => {
  it('POST /workflows starts a run from Agentfile text: 202, its inputs with defaults, its execution started', async () => {
    const { run, accepted, workflows } = await started();
    expect(accepted).toEqual({
      run: expect.stringMatching(/^wf-/),
      workflow: 'trip',
      status: 'running',
      inputs: { city: 'Lisbon', days: '3' },
    });
    expect(workflows.started).toEqual([storedSession('alice', run)]);
  });

  it('starts a run from the workflow spec as JSON', async () => {
    const spec = {
      name: 'one',
      inputs: [],
      agents: [],
      goals: [{ name: 'g', kind: 'goal', description: 'Do it.', outputs: [], using: [] }],
      steps: [{ kind: 'run', name: 'r', goals: ['g'] }],
    };
    const { accepted } = await started(api(), { spec });
    expect(accepted).toMatchObject({ workflow: 'one', inputs: {} });
  });

  it('GET /workflows/{run} answers a new run as running, with no goals and no gates', async () => {
    const { request, run } = await started();
    expect(await request('GET', `/workflows/${run}`)).toEqual({
      status: 200,
      body: {
        run,
        workflow: 'trip',
        status: 'running',
        inputs: { city: 'Lisbon', days: '3' },
        goals: [],
        gates: [],
        lastSeq: 1,
      },
    });
  });

  it('refuses an Agentfile that does not parse with 400 InvalidWorkflow, each problem at line:column', async () => {
    const { request, workflows } = api();
    const { status, body } = await request('POST', '/workflows', {
      agentfile: 'NAME x\nGOAL g FROM brief.md\n',
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe('InvalidWorkflow');
    expect(body.error.fields).toEqual([
      { path: 'agentfile', message: '1:1: expected at least one RUN or LOOP, found none' },
      {
        path: 'agentfile',
        message: expect.stringMatching(
          /^2:13: cannot read FROM file "brief.md": files cannot be read over HTTP/,
        ),
      },
    ]);
    expect(workflows.started).toEqual([]);
  });

  it.each([
    ['neither agentfile nor spec', { inputs: {} }],
    ['both agentfile and spec', { agentfile: AGENTFILE, spec: {} }],
    ['an input that is not a string', { agentfile: AGENTFILE, inputs: { days: 3 } }],
    ['an unknown field', { agentfile: AGENTFILE, goal: 'x' }],
  ])('refuses a body with %s with 400 ValidationError', async (_case, body) => {
    const { status, body: answer } = await api().request('POST', '/workflows', body);
    expect(status).toBe(400);
    expect(answer.error.code).toBe('ValidationError');
  });

  it.each([
    ['an undeclared input', { days: '3', weather: 'sun' }, /declares no input weather/],
    ['a missing input without DEFAULT', {}, /needs a value for input days/],
  ])('refuses %s with 400 InvalidWorkflowInput and writes nothing', async (_case, inputs, message) => {
    const { request, workflows } = api();
    const run = 'wf-refused';
    const { status, body } = await request('POST', '/workflows', { agentfile: AGENTFILE, inputs, run });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: 'InvalidWorkflowInput',
      message: expect.stringMatching(message),
    });
    expect((await request('GET', `/workflows/${run}`)).status).toBe(404);
    expect(workflows.started).toEqual([]);
  });

  it('answers a retried start with the same run id as the first; other inputs under that id get 409', async () => {
    const given = api();
    const body = { agentfile: AGENTFILE, inputs: { days: '3' }, run: 'wf-mine' };
    const first = await started(given, body);
    const again = await given.request('POST', '/workflows', body);
    expect(again).toEqual({ status: 202, body: first.accepted });
    const other = await given.request('POST', '/workflows', { ...body, inputs: { days: '4' } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('WorkflowRunExists');
  });

  it('derives the run id from an Idempotency-Key', async () => {
    const { request } = api();
    const body = { agentfile: AGENTFILE, inputs: { days: '3' } };
    const post = () => request('POST', '/workflows', body, 'alice', { 'idempotency-key': 'k-1' });
    const first = (await post()).body as WorkflowAccepted;
    expect((await post()).body).toEqual(first);
    expect(first.run).toMatch(/^wf-[0-9a-f]{16}$/);
  });

  it('hides a run from other tenants, and a plain session from the workflow routes, with 404 WorkflowRunNotFound', async () => {
    const { request, run } = await started();
    for (const path of [`/workflows/${run}`, `/workflows/${run}/stream`]) {
      const { status, body } = await request('GET', path, undefined, 'bob');
      expect({ status, code: body.error.code }).toEqual({ status: 404, code: 'WorkflowRunNotFound' });
    }
    const gate = await request('POST', `/workflows/${run}/gates/g1`, { decision: 'approve' }, 'bob');
    expect(gate.status).toBe(404);
    const session = await request('POST', '/sessions', { message: 'Hi' });
    expect((await request('GET', `/workflows/${session.body.session}`)).status).toBe(404);
  });

  it('lists goal outputs oldest first with their fields, gates as they stand, and the end', async () => {
    const { request, append, run } = await started();
    await append(run, 'k1', [{ kind: 'goal', ...planGoal, fields: { route: 'A' } }, 'Day 1: A']);
    await append(run, 'k2', [{ kind: 'gate', ...planGoal, gate: 'g1', status: 'waiting' }, 'Approve?']);
    expect((await request('GET', `/workflows/${run}`)).body).toMatchObject({
      status: 'waiting',
      goals: [{ goal: 'plan', output: 'Day 1: A', fields: { route: 'A' } }],
      gates: [{ gate: 'g1', goal: 'plan', status: 'waiting', text: 'Approve?' }],
    });
    await append(run, 'k3', [{ kind: 'end', status: 'done' }, 'All goals done.']);
    expect((await request('GET', `/workflows/${run}`)).body).toMatchObject({
      status: 'done',
      message: 'All goals done.',
    });
  });

  it('POST /gates/{gate} answers a waiting gate as the caller: 200, the correction in the log; a second answer 409', async () => {
    const { request, append, deps, run } = await started();
    await append(run, 'k1', [{ kind: 'gate', ...planGoal, gate: 'g1', status: 'waiting' }, 'Approve?']);
    const path = `/workflows/${run}/gates/g1`;
    const answer = await request('POST', path, { decision: 'correct', text: 'Shorter.' });
    expect(answer).toEqual({ status: 200, body: { run, gate: 'g1', status: 'corrected' } });
    const records = (await deps.log.read(storedSession('alice', run))).map(({ event }) => event);
    expect(records.slice(-2)).toMatchObject([
      { payload: { kind: 'gate', gate: 'g1', status: 'corrected', by: 'alice' }, content: 'Shorter.' },
      { payload: { kind: 'correction', goal: 'plan', attempt: 1, source: 'human' }, content: 'Shorter.' },
    ]);
    const again = await request('POST', path, { decision: 'approve' });
    expect({ status: again.status, code: again.body.error.code }).toEqual({
      status: 409,
      code: 'AlreadyDecided',
    });
  });

  it('refuses an unknown gate with 404 GateNotFound, and a correction without text with 400', async () => {
    const { request, run } = await started();
    const unknown = await request('POST', `/workflows/${run}/gates/nope`, { decision: 'approve' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'GateNotFound', message: expect.stringContaining(run) });
    expect(unknown.body.error.message).not.toContain(storedSession('alice', run));
    const bare = await request('POST', `/workflows/${run}/gates/nope`, { decision: 'correct' });
    expect(bare.body.error).toMatchObject({ code: 'ValidationError', fields: [{ path: 'text' }] });
  });

  it('streams the run’s records as server-sent events, then done with the run’s status', async () => {
    const { request, append, run } = await started();
    await append(run, 'k1', [{ kind: 'goal', ...planGoal }, 'Day 1']);
    await append(run, 'k2', [{ kind: 'end', status: 'failed', error: 'GoalFieldsMissing' }, 'No route.']);
    const { status, body } = await request('GET', `/workflows/${run}/stream`);
    expect(status).toBe(200);
    const lines = (body as string).split('\n');
    expect(lines.filter((line) => line.startsWith('event: '))).toEqual([
      'event: workflow',
      'event: workflow',
      'event: workflow',
      'event: done',
    ]);
    expect(lines.at(-3)).toBe('data: {"status":"failed","turn":null}');
  });

  it('names the child sessions of a run’s records, streamed or paged, by the ids the tenant reads them by', async () => {
    const { request, append, run } = await started();
    const session = `${storedSession('alice', run)}.1`;
    const ids = { ...planGoal, phase: 'execute' as const, session, turn: 't-1', execution: 'x' };
    await append(run, 'k1', [{ kind: 'run', ...ids }, '']);
    await append(run, 'k2', [{ kind: 'end', status: 'done' }, 'Done.']);
    const { body } = await request('GET', `/workflows/${run}/stream`);
    const records = (body as string)
      .split('\n')
      .filter((line) => line.startsWith('data: {"seq"'))
      .map((line) => JSON.parse(line.slice('data: '.length)).payload);
    expect(records.find((record) => record.kind === 'run')?.session).toBe(`${run}.1`);
    // The run is a session: its events page shows the same.
    const page = await request('GET', `/sessions/${run}/events`);
    const logged = page.body.events.find(
      (event: { payload?: { kind?: string } }) => event.payload?.kind === 'run',
    );
    expect(logged.payload.session).toBe(`${run}.1`);
  });

  it('refuses a run id holding "." with 400 at `run`, so no run is another run’s goal session', async () => {
    const given = api();
    const refused = await given.request('POST', '/workflows', {
      agentfile: AGENTFILE,
      inputs: { days: '3' },
      run: 'r.1',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'ValidationError',
      fields: [
        {
          path: 'run',
          message: expect.stringContaining('must not hold ".": it names a run'),
        },
      ],
    });
    const { run } = await started(given, { agentfile: AGENTFILE, inputs: { days: '3' }, run: 'r' });
    expect(run).toBe('r');
    expect(given.workflows.started).toEqual([storedSession('alice', 'r')]);
  });

  it('refuses messages and cancels on a run and on its goal sessions with 409 WorkflowSession; reads go on, and no answer shows the tenant tag', async () => {
    const given = await started(api(), { agentfile: AGENTFILE, inputs: { days: '3' }, run: 'r' });
    const { request, deps } = given;
    // Goal 1's turn, as AdvanceWorkflow submits it: the session taken, the goal's document appended.
    const goal = `${storedSession('alice', 'r')}.1`;
    await deps.log.acquireTurn(goal, 't-1');
    const user = { type: 'user' as const, content: '<workflow>…</workflow>', timestamp: 1 };
    await deps.log.append({ session: goal, turn: 't-1', key: 'user:t-1', events: [{ event: user }] });
    const runBefore = await deps.log.read(storedSession('alice', 'r'));
    const answers: unknown[] = [];
    for (const [session, owner] of [
      ['r', 'workflow run r'],
      ['r.1', 'a goal session of workflow run r'],
    ]) {
      for (const [path, body] of [
        ['messages', { message: 'Hi' }],
        ['cancel', undefined],
      ] as const) {
        const answer = await request('POST', `/sessions/${session}/${path}`, body);
        answers.push(answer);
        expect(answer.status).toBe(409);
        expect(answer.body.error).toEqual({
          code: 'WorkflowSession',
          message: expect.stringMatching(new RegExp(`^Session ${session} is ${owner}: .* /workflows/r\\b`)),
        });
      }
    }
    expect(await deps.log.read(storedSession('alice', 'r'))).toEqual(runBefore);
    expect(await deps.log.holder(goal)).toMatchObject({ turn: 't-1', cancelRequested: false });
    for (const path of ['/sessions/r.1', '/sessions/r.1/events', '/sessions/r/events', '/workflows/r']) {
      const answer = await request('GET', path);
      answers.push(answer);
      expect(answer.status).toBe(200);
    }
    expect(JSON.stringify(answers)).not.toContain(tenantTag('alice'));
  });

  it('shows a run’s records, its end’s message and its summary without the tenant tag', async () => {
    const { request, append, run } = await started();
    const stored = storedSession('alice', run);
    const ids = { ...planGoal, phase: 'execute' as const, session: `${stored}.1`, turn: 't-1' };
    // On Step Functions a run's execution is named after its stored id, dots as "_".
    await append(run, 'k1', [{ kind: 'run', ...ids, execution: stored.replaceAll('.', '_') }, '']);
    const failed = `Goal plan (execute) ended failed: see session ${stored}.1.`;
    await append(run, 'k2', [{ kind: 'end', status: 'failed', error: 'GoalFailed' }, failed]);
    const summary = await request('GET', `/workflows/${run}`);
    expect(summary.body.message).toBe(`Goal plan (execute) ended failed: see session ${run}.1.`);
    const page = await request('GET', `/sessions/${run}/events`);
    expect(
      page.body.events.find((event: { payload?: { kind?: string } }) => event.payload?.kind === 'run'),
    ).toMatchObject({
      payload: { session: `${run}.1`, execution: run },
    });
    const stream = await request('GET', `/workflows/${run}/stream`);
    for (const answer of [summary, page, stream])
      expect(JSON.stringify(answer.body)).not.toContain(tenantTag('alice'));
  });

  it('GET /goals/{goal}/context answers 404 GoalNotRun before the goal ran', async () => {
    const { request, run } = await started();
    const { status, body } = await request('GET', `/workflows/${run}/goals/plan/context`);
    expect({ status, code: body.error.code }).toEqual({ status: 404, code: 'GoalNotRun' });
  });
});
