import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_BASELINE, mcpBaseline, mcpConformance } from '../support/mcp-conformance-suite.js';
import { type Served, startServe } from '../support/serve-client.js';

// The protocol's own conformance suite, unchanged, against `agentstep serve`'s POST /mcp: every
// scenario passes, or is in the baseline because it needs the suite's own fixtures (decision 0049).
describe('the MCP conformance suite against agentstep serve', () => {
  let served: Served;
  beforeAll(async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-mcp-conformance-'));
    writeFileSync(join(cwd, 'script.json'), JSON.stringify(['Hello from the agent.<end>']));
    served = await startServe(['--store', 'memory', '--script', 'script.json'], cwd);
  });
  afterAll(async () => {
    expect(await served?.stop()).toBe(0);
  });

  it('passes every server scenario of every protocol version but those the baseline names', async () => {
    const url = `${served.url}/mcp`;
    const run = await mcpConformance([
      'server',
      '--url',
      url,
      '--suite',
      'all',
      '--expected-failures',
      MCP_BASELINE,
    ]);
    expect(run.output).toMatch(/Total: \d+ passed/);
    // On failure, the suite's own summary says which scenario and why.
    expect(run.status, run.output.slice(run.output.indexOf('=== SUMMARY ==='))).toBe(0);
  });

  it('names, for each scenario of the baseline, the fixture it needs', () => {
    const entries = mcpBaseline('server');
    expect(entries.length).toBeGreaterThan(0);
    for (const { scenario, reason } of entries) expect(reason, scenario).toMatch(/^needs /);
  });
});
