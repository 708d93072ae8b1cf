import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentStepApiError, AgentStepClient, type StreamItem } from '@agentstep/client';
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
