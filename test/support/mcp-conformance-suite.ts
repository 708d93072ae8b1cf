import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { node22 } from './node22.js';

/** The MCP conformance suite (the version test/package.json pins), run with Node.js 22 as it needs. */
const SUITE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');

/** The scenarios AgentStep does not pass, each with its reason: `--expected-failures` of every run. */
export const MCP_BASELINE = fileURLToPath(
  new URL('../conformance/mcp-expected-failures.yaml', import.meta.url),
);

/** One run of the suite with `args`: its exit code and all it printed, stdout and stderr as they came. */
export function mcpConformance(args: readonly string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((settle, fail) => {
    const child = spawn(node22(), [SUITE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', fail);
    child.once('close', (status) => settle({ status, output }));
  });
}

/** One entry of the baseline: a scenario, and the reason its comment gives (empty when it has none). */
export interface BaselineEntry {
  scenario: string;
  reason: string;
}

/**
 * The entries of one list of the baseline (`server:` or `client:`), as written: `- SCENARIO # reason`
 * a line. A line of the list in any other shape is an entry without a scenario, for a test to refuse.
 */
export function mcpBaseline(list: 'server' | 'client'): BaselineEntry[] {
  const lines = readFileSync(MCP_BASELINE, 'utf8').split('\n');
  const rest = lines.slice(lines.indexOf(`${list}:`) + 1);
  const end = rest.findIndex((line) => line !== '' && !line.startsWith(' '));
  return (end === -1 ? rest : rest.slice(0, end))
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const entry = /^ {2}- (\S+) +# +(\S.*)$/.exec(line);
      return { scenario: entry?.[1] ?? '', reason: entry?.[2] ?? '' };
    });
}
