import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkPeer, startSdkPeer } from '../support/a2a-sdk-peer.js';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { newProject, serveScriptInProcess, serveScriptOn } from '../support/in-process.js';
import { type ApiEvent, call, eventsOnce, type Served } from '../support/serve-client.js';

/** The environment variable the agent file's header names as its secret: the peer's bearer (its tenant). */
const PEER_TOKEN = 'AGENTSTEP_TEST_A2A_PEER_TOKEN';

const PEER_ANSWER = 'The answer is 42.';

const ended = (events: ApiEvent[]) => events.some((event) => event.type === 'turn_end');

describe.skipIf(dynamoEndpoint === '')(
  'remote A2A agents as tools (`serve --agent agent.ts --a2a sdk=URL`): a second serve and an @a2a-js/sdk server',
  () => {
    const before = process.env[PEER_TOKEN];
    let peer: Served;
    let sdk: SdkPeer;
    let caller: Served;
    beforeAll(async () => {
      process.env[PEER_TOKEN] = 'caller';
      [peer, sdk] = await Promise.all([
        serveScriptInProcess('a2a-agents-peer', [`${PEER_ANSWER}<end>`]),
        startSdkPeer((text) => `pong: ${text}`),
      ]);
      const project = newProject('a2a-agents');
      // The peer, a served AgentStep agent, is the agent file's: it needs a bearer (its tenant).
      const headers = { Authorization: { secret: PEER_TOKEN, prefix: 'Bearer ' } };
      const agent = { name: 'caller', a2aAgents: [{ name: 'peer', url: peer.url, headers }] };
      writeFileSync(join(project.cwd, 'agent.ts'), `export default ${JSON.stringify(agent)};\n`);
      const script = [
        batch(['peer__send', { message: 'What is the answer?' }], ['sdk__send', { message: 'Ping' }]),
        'Done.<end>',
      ];
      caller = await serveScriptOn(project, 'a2a-agents', script, [
        '--agent',
        'agent.ts',
        '--a2a',
        `sdk=${sdk.url}`,
      ]);
    });
    afterAll(async () => {
      for (const served of [caller, peer]) expect(await served?.stop()).toBe(0);
      await sdk?.close();
      if (before === undefined) delete process.env[PEER_TOKEN];
      else process.env[PEER_TOKEN] = before;
    });

    it("calls both in one batch and logs each remote task's answer in call order; the message id is the call's key", async () => {
      const { body } = await call(`${caller.url}/sessions`, 'ann', {
        method: 'POST',
        json: { message: 'Go' },
      });
      const events = await eventsOnce(caller.url, 'ann', body.session, ended);
      expect(events.find((event) => event.type === 'turn_end')?.payload?.status).toBe('done');
      const result = events.find((event) => event.type === 'result');
      const results = JSON.parse(String(result?.content)) as Array<{ content: { context: string } }>;
      expect(results).toEqual([
        {
          tool: 'peer__send',
          status: 'success',
          content: { answer: PEER_ANSWER, task: expect.stringMatching(/~/), context: expect.any(String) },
        },
        {
          tool: 'sdk__send',
          status: 'success',
          content: { answer: 'pong: Ping', task: expect.any(String), context: expect.any(String) },
        },
      ]);
      // The call's key: the session as the log stores it (the tenant's), its first batch, position 1.
      const key = new RegExp(`^[^:]+\\.${body.session}:t-[^:]+\\.1:1$`);
      expect(sdk.messages).toEqual([{ messageId: expect.stringMatching(key), text: 'Ping' }]);

      // The peer ran the task as a turn of the caller's tenant there, in the session its context names.
      const peerEvents = await eventsOnce(peer.url, 'caller', String(results[0]?.content.context), ended);
      expect(peerEvents.find((event) => event.type === 'user')?.content).toBe('What is the answer?');
    });

    it('cancels the remote task when the calling turn is cancelled', async () => {
      const holding = await startSdkPeer(
        () => 'never',
        (text) => text === 'Hold',
      );
      const project = newProject('a2a-agents-cancel');
      const holder = await serveScriptOn(
        project,
        'a2a-agents-cancel',
        [batch(['sdk__send', { message: 'Hold' }])],
        ['--a2a', `sdk=${holding.url}`],
      );
      try {
        const { body } = await call(`${holder.url}/sessions`, 'ann', {
          method: 'POST',
          json: { message: 'Go' },
        });
        await eventsOnce(holder.url, 'ann', body.session, (events) =>
          events.some(({ type }) => type === 'call'),
        );
        const cancelling = call(`${holder.url}/sessions/${body.session}/cancel`, 'ann', { method: 'POST' });
        expect(await holding.cancelled).toEqual(expect.any(String));
        expect((await cancelling).status).toBe(202);
        const events = await eventsOnce(holder.url, 'ann', body.session, ended);
        expect(events.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'cancelled' } });
      } finally {
        expect(await holder.stop()).toBe(0);
        await holding.close();
      }
    });
  },
);
