import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningUrl } from '@agentstep/cli/testing';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { startCli } from '../support/run-cli.js';
import { call, eventsOnce } from '../support/serve-client.js';

/** Every turn: a call that waits for an approval nobody gives (`--approve sleep`), so only the stop ends it. */
const WAITING = [batch(['sleep', { ms: 1, value: 'slept' }]), 'Done.<end>'];

/** `agentstep serve` in `cwd`, and the address it announced once it listens. */
async function serve(cwd: string) {
  const args = ['serve', '--port', '0', '--auth', 'dev', '--script', 'waiting.json', '--approve', 'sleep'];
  const served = startCli(args, { cwd });
  const url = await served.waitFor(listeningUrl);
  return { ...served, url };
}

// What the API does is proven in-process in test/api/; this proves the binary serves it and turns
// SIGINT into the stop request that cancels what runs (test/api/cancel.test.ts takes that path in-process).
describe.skipIf(dynamoEndpoint === '')('agentstep serve (the real binary)', () => {
  it('answers on the address it announced; SIGINT stops it (exit 0), the turn it ran ends cancelled, its session free', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-serve-'));
    writeFileSync(join(cwd, 'waiting.json'), JSON.stringify(WAITING));
    const first = await serve(cwd);
    const { status, body } = await call(`${first.url}/sessions`, 'erin', {
      method: 'POST',
      json: { message: 'Go' },
    });
    expect(status).toBe(202);
    await eventsOnce(first.url, 'erin', body.session, (events) =>
      events.some(({ type }) => type === 'approval'),
    );
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    // Started again on the same folder, it reads the log the first one closed.
    const again = await serve(cwd);
    try {
      const events = await eventsOnce(again.url, 'erin', body.session, () => true);
      expect(events.at(-1)).toMatchObject({
        type: 'turn_end',
        payload: { turn: body.turn, status: 'cancelled' },
      });
      expect((await call(`${again.url}/sessions/${body.session}`, 'erin')).body).toMatchObject({
        status: 'idle',
      });
    } finally {
      again.child.kill('SIGINT');
      expect(await again.exited).toBe(0);
    }
  });
});
