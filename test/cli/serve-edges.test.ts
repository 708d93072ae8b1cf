import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningUrl } from '@agentstep/cli/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkedUpload, sendRaw } from '../support/raw-http.js';
import { type BackgroundCli, startCli } from '../support/run-cli.js';
import { IN_MEMORY_STORE } from '../support/serve-client.js';

const MIB = 1024 * 1024;
const UPLOAD = 300 * MIB;
/** Where Linux tells a process's resident memory; other systems have no /proc. */
const PROC_STATUS = '/proc/self/status';

/** The resident memory of process `pid`, in bytes, as /proc reads it. */
function residentBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (line === null) throw new Error(`/proc/${pid}/status has no VmRSS line.`);
  return Number(line[1]) * 1024;
}

// What serve refuses is proven in-process in test/api/edges.test.ts; this proves the binary's
// memory stays flat under an upload, which only a process shows.
describe('agentstep serve (the real binary) at its edges', () => {
  let served: BackgroundCli;
  let url = '';
  beforeAll(async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-serve-edges-'));
    served = startCli(['serve', '--port', '0', '--auth', 'dev', ...IN_MEMORY_STORE], { cwd });
    url = await served.waitFor(listeningUrl);
  });
  afterAll(async () => {
    served?.child.kill('SIGINT');
    expect(await served?.exited).toBe(0);
  });

  it('answers a 300 MiB chunked upload without credentials with 413 before 1 MiB is sent, and closes', async () => {
    const { answer, sent } = await chunkedUpload(`${url}/sessions`, { total: UPLOAD, pauseAt: MIB });
    expect(answer).toMatchObject({
      status: 413,
      headers: { connection: 'close' },
      body: { error: { code: 'PayloadTooLarge' } },
    });
    expect(sent).toBeLessThanOrEqual(MIB);
  });

  it('serves the web console only to its own Host', async () => {
    const port = new URL(url).port;
    expect((await sendRaw(`${url}/`, { headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect(await sendRaw(`${url}/`, { headers: { host: `evil.example:${port}` } })).toMatchObject({
      status: 421,
      body: { error: { code: 'MisdirectedRequest' } },
    });
  });

  it.skipIf(!existsSync(PROC_STATUS))(
    `grows by less than 50 MB while a client pushes 300 MiB without waiting for the answer${existsSync(PROC_STATUS) ? '' : ' (skipped: no /proc to read its memory from)'}`,
    async () => {
      const pid = served.child.pid ?? 0;
      const before = residentBytes(pid);
      const pushed = await chunkedUpload(`${url}/sessions`, { total: UPLOAD });
      // The server stopped reading at the cap and closed: the upload ended long before its end.
      expect(pushed.sent).toBeLessThan(UPLOAD);
      expect((await sendRaw(`${url}/sessions`, { headers: { authorization: 'Bearer erin' } })).status).toBe(
        200,
      );
      expect(residentBytes(pid) - before).toBeLessThan(50 * MIB);
    },
  );
});
