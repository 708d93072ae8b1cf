import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentStepApiError, AgentStepClient, type StreamItem } from '@agentstep/client';
import { tenantTag } from '@agentstep/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { newProject, serveInProcess } from '../support/in-process.js';
import type { Served } from '../support/serve-client.js';

const example = (file: string) => fileURLToPath(new URL(`../../examples/workflows/${file}`, import.meta.url));

let served: Served;

beforeAll(async () => {
  // Every goal's turns play the example's script for that goal.
  const script = example('converge-review.script.json');
  served = await serveInProcess(newProject('workflows'), ['--auth', 'dev', '--script', script]);
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

function clientOf(tenant: string): AgentStepClient {
  return new AgentStepClient({ baseUrl: served.url, token: tenant });
}

/** Follows the run's stream until a record matches `until` (or the stream ends); returns the items seen. */
async function until(stream: AsyncIterable<StreamItem>, found: (item: StreamItem) => boolean) {
  const seen: StreamItem[] = [];
  for await (const item of stream) {
    seen.push(item);
    if (found(item)) break;
  }
  return seen;
}

/** The workflow record a stream item carries, if it carries one. */
function recordOf(item: StreamItem | undefined): Record<string, unknown> | undefined {
  return item !== undefined && 'seq' in item && item.event.type === 'workflow'
    ? item.event.payload
    : undefined;
}

/** Whether the item is a `workflow` record whose payload has `fields`. */
function record(fields: Record<string, unknown>) {
  return (item: StreamItem) => {
    const payload = recordOf(item);
    return payload !== undefined && Object.entries(fields).every(([key, value]) => payload[key] === value);
  };
}

describe.skipIf(dynamoEndpoint === '')(
  'workflow runs over the HTTP API (agentstep serve, the client)',
  () => {
    it('starts a run from Agentfile text, streams it, answers its human gate twice and reads its outputs', async () => {
      const alice = clientOf('alice');
      const agentfile = readFileSync(example('converge-review.agentfile'), 'utf8');
      const accepted = await alice.startWorkflow({ agentfile });
      expect(accepted).toMatchObject({
        workflow: 'abstract-editor',
        status: 'running',
        inputs: { topic: 'event-sourced agent runtimes' },
      });
      const { run } = accepted;

      const first = await until(alice.streamWorkflow(run), record({ kind: 'gate', status: 'waiting' }));
      const kinds = first.map((item) => recordOf(item)?.kind);
      expect(kinds[0]).toBe('start');
      expect(first.filter(record({ kind: 'run', goal: 'tighten', phase: 'iteration' }))).toHaveLength(3);
      const waiting = await alice.workflow(run);
      expect(waiting).toMatchObject({
        status: 'waiting',
        goals: [{ goal: 'tighten', output: expect.stringMatching(/^Recording every agent step/) }],
        gates: [
          { goal: 'publish', status: 'waiting', text: expect.stringMatching(/^Event-Sourced Agents\n/) },
        ],
      });
      const gate = waiting.gates[0]?.gate ?? '';

      await expect(clientOf('bob').decideGate(run, gate, { decision: 'approve' })).rejects.toMatchObject({
        status: 404,
        code: 'WorkflowRunNotFound',
      });
      expect(
        await alice.decideGate(run, gate, { decision: 'correct', text: 'Make the title a question.' }),
      ).toEqual({
        run,
        gate,
        status: 'corrected',
      });
      const last = first.at(-1);
      const after = last !== undefined && 'seq' in last ? last.seq : 0;
      const second = await until(
        alice.streamWorkflow(run, { after }),
        record({ kind: 'gate', status: 'waiting' }),
      );
      expect(second.some(record({ kind: 'correction', source: 'human' }))).toBe(true);
      const context = await alice.workflowContext(run, 'publish');
      expect(context).toContain(
        '</current-goal>\n\n<correction source="human">\nMake the title a question.\n</correction>\n\n</workflow>',
      );
      const regate = (await alice.workflow(run)).gates.find((each) => each.status === 'waiting');
      expect(regate?.text).toMatch(/^Why Do Agents Remember Every Step\?\n/);

      await alice.decideGate(run, regate?.gate ?? '', { decision: 'approve' });
      const rest = await until(alice.streamWorkflow(run), () => false);
      expect(rest.at(-1)).toEqual({ type: 'done', status: 'done', turn: null });
      const done = await alice.workflow(run);
      expect(done).toMatchObject({ status: 'done', message: expect.any(String) });
      expect(done.goals.map(({ goal }) => goal)).toEqual(['tighten', 'publish']);
      expect(done.goals[1]?.output).toMatch(/^Why Do Agents Remember Every Step\?\n/);
      expect(done.gates.map(({ status, by }) => [status, by])).toEqual([
        ['corrected', 'alice'],
        ['approved', 'alice'],
      ]);
      const again = alice.decideGate(run, regate?.gate ?? '', { decision: 'abort' });
      await expect(again).rejects.toBeInstanceOf(AgentStepApiError);
      await expect(again).rejects.toMatchObject({ status: 409, code: 'AlreadyDecided' });
    }, 180_000);

    it('refuses an Agentfile with problems, each at its line and column', async () => {
      const refused = clientOf('alice').startWorkflow({
        agentfile: 'NAME x\nGOAL g "Do it." USING nobody\nRUN r USING g\n',
      });
      await expect(refused).rejects.toMatchObject({
        status: 400,
        code: 'InvalidWorkflow',
        fields: [{ path: 'agentfile', message: expect.stringMatching(/^2:\d+: /) }],
      });
    });
  },
);

/** Two goals, the second stopping at a human gate: the run waits there until it is answered. */
const GATED = `NAME gated
GOAL first "Say one."
GOAL second "Say two." SUPERVISED HUMAN
RUN main USING first, second
`;

describe.skipIf(dynamoEndpoint === '')('workflow runs and sessions over the HTTP API never collide', () => {
  let gated: Served;

  beforeAll(async () => {
    const project = newProject('workflow-ids');
    writeFileSync(
      join(project.cwd, 'gated.json'),
      JSON.stringify({ first: ['One.<end>'], second: ['Two.<end>'] }),
    );
    gated = await serveInProcess(project, ['--auth', 'dev', '--script', 'gated.json']);
  });

  afterAll(async () => {
    expect(await gated?.stop()).toBe(0);
  });

  /** A request as alice, its status and body text as they came. */
  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${gated.url}${path}`, {
      method,
      headers: { authorization: 'Bearer alice', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  }

  it('refuses run r.1 up front; run r runs to its end although cancel and messages on it and its goal sessions are refused (409); reads answer; no answer shows the tenant tag', async () => {
    const answers: string[] = [];
    const refused = await call('POST', '/workflows', { agentfile: GATED, run: 'r.1' });
    answers.push(refused.text);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error).toMatchObject({
      code: 'ValidationError',
      fields: [{ path: 'run' }],
    });
    const accepted = await call('POST', '/workflows', { agentfile: GATED, run: 'r' });
    answers.push(accepted.text);
    expect(accepted.status).toBe(202);

    const alice = new AgentStepClient({ baseUrl: gated.url, token: 'alice' });
    const seen = await until(alice.streamWorkflow('r'), record({ kind: 'gate', status: 'waiting' }));
    const goalSessions = seen.flatMap((item) => {
      const payload = recordOf(item);
      return payload?.kind === 'run' ? [String(payload.session)] : [];
    });
    expect(goalSessions[0]).toBe('r.1');
    for (const session of ['r', ...goalSessions]) {
      for (const [path, body] of [
        ['cancel', undefined],
        ['messages', { message: 'Hi' }],
      ] as const) {
        const answer = await call('POST', `/sessions/${session}/${path}`, body);
        answers.push(answer.text);
        expect({ session, path, status: answer.status, code: JSON.parse(answer.text).error.code }).toEqual({
          session,
          path,
          status: 409,
          code: 'WorkflowSession',
        });
      }
    }
    for (const path of ['/sessions/r.1', '/sessions/r.1/events', '/sessions/r/events', '/workflows/r']) {
      const answer = await call('GET', path);
      answers.push(answer.text);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    }
    const goalEvents = JSON.parse(answers.at(-3) ?? '{}').events.map((event: { type: string }) => event.type);
    expect([goalEvents[0], goalEvents.at(-1)]).toEqual(['user', 'turn_end']);

    const waiting = await alice.workflow('r');
    expect(waiting.status).toBe('waiting');
    await alice.decideGate('r', waiting.gates[0]?.gate ?? '', { decision: 'approve' });
    const rest = await until(alice.streamWorkflow('r'), () => false);
    expect(rest.at(-1)).toEqual({ type: 'done', status: 'done', turn: null });
    const done = await call('GET', '/workflows/r');
    answers.push(done.text);
    expect(JSON.parse(done.text)).toMatchObject({
      status: 'done',
      goals: [{ goal: 'first' }, { goal: 'second' }],
    });
    expect(answers.join('\n')).not.toContain(tenantTag('alice'));
  }, 120_000);
});
