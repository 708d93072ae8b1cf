import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MCP_BASELINE, mcpBaseline, mcpConformance } from '../support/mcp-conformance-suite.js';

/** What the suite runs as the client: the real `agentstep mcp`, as each scenario needs it. */
const CLIENT = `${process.execPath} ${fileURLToPath(new URL('../support/mcp-conformance-client.mjs', import.meta.url))}`;

/**
 * The runs that together hold every client scenario, each run's scenarios at once. sse-retry
 * measures how long the client waits before it reconnects (the server's `retry`, within 200 ms),
 * so it runs alone once the others have ended: their clients' start-up on a busy machine would
 * delay its timer.
 */
const RUNS = [
  ['--suite', 'auth'],
  ['--suite', 'backcompat'],
  ['--suite', 'draft'],
  ['--suite', 'extensions'],
  ['--scenario', 'initialize'],
  ['--scenario', 'tools_call'],
  ['--scenario', 'elicitation-sep1034-client-defaults'],
];
const TIMED_RUN = ['--scenario', 'sse-retry'];

/** A run of `args` against AgentStep's client, judged by the baseline; what each client printed goes to `results`. */
function clientRun(args: readonly string[], results: string) {
  return mcpConformance([
    'client',
    '--command',
    CLIENT,
    ...args,
    '--expected-failures',
    MCP_BASELINE,
    '-o',
    results,
  ]);
}

/** What the client of `scenario` printed on stdout, as the suite saved it in `results`. */
function printed(results: string, scenario: string): string {
  const folder = dirname(join(results, scenario));
  const saved = readdirSync(folder).find((name) => name.startsWith(`${basename(scenario)}-2`));
  if (saved === undefined) throw new Error(`The suite saved nothing of ${scenario} in ${folder}.`);
  return readFileSync(join(folder, saved, 'stdout.txt'), 'utf8');
}

/** The suite's client scenarios, as its `list` names them. */
async function clientScenarios(): Promise<string[]> {
  const { output } = await mcpConformance(['list']);
  const section = output.slice(output.indexOf('Client scenarios'));
  return [...section.matchAll(/^ {2}- (\S+) \[/gm)].map((match) => match[1] ?? '');
}

/** The scenarios a run's output says it started. */
function started(output: string): string[] {
  return [...output.matchAll(/^Starting scenario: (\S+)$/gm)].map((match) => match[1] ?? '');
}

describe("the MCP conformance suite's client scenarios against `agentstep mcp` (the real binary)", () => {
  it('passes each of them but those the baseline lists, and those fail', async () => {
    const results = mkdtempSync(join(tmpdir(), 'agentstep-mcp-conformance-results-'));
    const runs = await Promise.all(RUNS.map((args) => clientRun(args, results)));
    runs.push(await clientRun(TIMED_RUN, results));
    for (const [index, { status, output }] of runs.entries())
      expect(status, `${[...RUNS, TIMED_RUN][index]?.join(' ')}:\n${output}`).toBe(0);
    const ran = runs.flatMap(({ output }) => started(output));
    expect(ran.toSorted()).toEqual((await clientScenarios()).toSorted());
    // What the binary printed: the servers' answers, read through the tools the model would see.
    expect(printed(results, 'initialize')).toBe('');
    expect(printed(results, 'tools_call')).toBe('The sum of 5 and 3 is 8\n');
    expect(printed(results, 'sse-retry')).toBe('Reconnection test completed successfully\n');
    for (const scenario of ['auth/client-credentials-basic', 'auth/client-credentials-jwt'])
      expect(printed(results, scenario)).toBe(
        'conformance__test-tool  The tool test-tool of the MCP server conformance.\n',
      );
  });

  it("gives a reason for each scenario of the baseline's client list, each a client scenario", async () => {
    const scenarios = await clientScenarios();
    const entries = mcpBaseline('client');
    expect(entries.length).toBeGreaterThan(0);
    for (const { scenario, reason } of entries) {
      expect(reason, `${scenario} gives no reason`).not.toBe('');
      expect(scenarios).toContain(scenario);
    }
  });
});
