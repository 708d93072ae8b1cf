import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWindowServer } from '@agentstep/runtime/testing';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { jsonLines, runCli } from '../support/run-cli.js';

// Compaction is proven in-process (packages/cli/src/commands/compaction.test.ts, test/engine/);
// this proves the bundled binary on the folder's DynamoDB Local does it as written in the issue.
describe.skipIf(dynamoEndpoint === '')('agentstep run --context-window (the real binary)', () => {
  it('a 60-step turn against a provider with an 8,000-token window: no request over it, compacted events logged', async () => {
    const server = await startWindowServer({ stepsPerTurn: 59, blobBytes: 2_000, windowTokens: 8_000 });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'agentstep-compaction-'));
      const run = await runCli(
        [
          ...['run', 'Fetch blobs.', '--session', 's-long', '--model', 'openai:any-model'],
          ...['--base-url', server.url, '--context-window', '8000', '--max-steps', '60'],
        ],
        { cwd },
      );
      expect(run.stderr).not.toContain('Error');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(
        /context compacted: [\d,]+ → [\d,]+ tokens \(events 1–\d+ summarized by openai:any-model\)/,
      );
      expect(Math.max(...server.requests.map((request) => request.tokens))).toBeLessThanOrEqual(8_000);
      const events = jsonLines((await runCli(['events', 's-long', '--json'], { cwd })).stdout);
      expect(events.filter((event) => event.type === 'compacted').length).toBeGreaterThanOrEqual(2);
      expect(events.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'done' } });
    } finally {
      await server.close();
    }
  });
});
