import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wireEventSchema } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/run-cli.js';

const example = readFileSync(new URL('../../examples/model-output.txt', import.meta.url), 'utf8');

// What each command does is proven in-process beside its source (packages/cli/src/commands/);
// these prove the binary's wiring: standard input, standard output and error, and exit codes.
describe('agentstep (the real binary)', () => {
  it('parses model output from standard input: one event per line, exit 0', async () => {
    const { status, stdout, stderr } = await runCli(['parse'], { input: example });
    expect(status).toBe(0);
    expect(stderr).toBe('');
    const events = jsonLines(stdout).map((line) => wireEventSchema.parse(line));
    expect(events.map((event) => event.type)).toEqual(['think', 'call', 'call', 'call', 'call', 'execute']);
  });

  it('explains a usage mistake on stderr with exit 2, without a stack trace', async () => {
    const { status, stdout, stderr } = await runCli(['parse', '--chunk-size', '-1']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^agentstep parse: /);
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('runs the demo agent: a parallel batch with one failure, a second step, a final answer', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-demo-'));
    const { status, stdout, stderr } = await runCli(['run', '--store', 'memory'], { cwd });
    expect(status).toBe(0);
    expect(stderr).toContain('the model is scripted (the demo script)');
    expect(stderr).toMatch(/no provider credentials found|credentials found for: /);
    // Completion order varies (the calls run in parallel); each outcome is reported once.
    for (const line of ['✓ #0 echo success', '✓ #1 sleep success', '✗ #2 fail failure'])
      expect(stdout).toContain(line);
    expect(stdout).toContain('results: 2 succeeded, 1 failed');
    expect(stdout).toContain('● model step 3\n  All done');
    // Why the call failed, as `agentstep events` shows it.
    expect(stdout).toMatch(/✗ #2 fail failure: .*this tool always fails\n/);
    expect(stdout).toContain('3 model steps, 4 tool calls, 17 state transitions in 1 execution, ');
    // A pipe, not a terminal: its thinking is not dimmed, and no ANSI escape reaches it.
    expect(stdout).toContain('  thinking: ');
    expect(stdout).not.toContain('\u001b');
  });

  it('runs a turn on a provider --provider names by a path from the working directory', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-provider-'));
    const fixture = new URL('../../packages/cli/src/testing/fixed-provider.mjs', import.meta.url);
    copyFileSync(fixture, join(cwd, 'fixed.mjs'));
    const args = [
      ...['run', '--provider', './fixed.mjs', '--model', 'fixed:m'],
      ...['--base-url', 'http://gateway.example', '--store', 'memory', '--json'],
    ];
    const { status, stdout, stderr } = await runCli(args, { cwd });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = jsonLines(stdout);
    expect(lines.find((line) => line.type === 'respond')?.content).toBe(
      'The fixed answer, from m at http://gateway.example.',
    );
    expect(lines.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'done' } });
  });
});
