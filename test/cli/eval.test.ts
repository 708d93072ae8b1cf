import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { batch } from '../support/harness.js';
import { runCli } from '../support/run-cli.js';

/** The project's dependencies, as a user's npm install gives them: @agentstep/runtime and zod. */
const CLI_MODULES = fileURLToPath(new URL('../../packages/cli/node_modules', import.meta.url));

/** An agent whose one tool counts each run of it in a file beside it: replays must leave it empty. */
const AGENT = `import { appendFileSync } from 'node:fs';
import { defineAgent, defineTool } from '@agentstep/runtime';
import * as z from 'zod';

const count = defineTool({
  name: 'count',
  description: 'Counts a word.',
  input: z.object({ word: z.string() }),
  handler: ({ word }) => {
    appendFileSync(new URL('./runs.txt', import.meta.url), word + '\\n');
    return 'counted ' + word;
  },
});

export default defineAgent({ name: 'counter', tools: [count], script: './script.json' });
`;

describe('evals from logs: agentstep eval export and eval run (the real binary)', () => {
  let cwd = '';
  const runs = () => readFileSync(join(cwd, 'runs.txt'), 'utf8');

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'agentstep-eval-'));
    symlinkSync(CLI_MODULES, join(cwd, 'node_modules'), 'dir');
    writeFileSync(join(cwd, 'agent.mjs'), AGENT);
    writeFileSync(
      join(cwd, 'script.json'),
      JSON.stringify([batch(['count', { word: 'apple' }]), 'One apple.<end>']),
    );
    writeFileSync(
      join(cwd, 'worse.json'),
      JSON.stringify([batch(['count', { word: 'pear' }]), 'One pear.<end>']),
    );
    const sessions: string[] = [];
    for (const prompt of ['Count apples.', 'Count them again.', 'And once more.']) {
      const { status, stderr } = await runCli(['run', prompt, '--agent', 'agent.mjs'], { cwd });
      expect(status).toBe(0);
      sessions.push(/session (s-[0-9a-f]+)/.exec(stderr)?.[1] ?? '');
    }
    expect(runs()).toBe('apple\napple\napple\n');
    writeFileSync(join(cwd, 'runs.txt'), '');
    const exported = await runCli(['eval', 'export', ...sessions], { cwd });
    expect(exported.status).toBe(0);
    writeFileSync(join(cwd, 'cases.jsonl'), exported.stdout);
  });

  it('exports one case per turn: its history, message, calls with outcomes, answer and steps', () => {
    const cases = readFileSync(join(cwd, 'cases.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(cases).toHaveLength(3);
    expect(cases[0]).toMatchObject({
      message: 'Count apples.',
      calls: [{ tool: 'count', args: { word: 'apple' }, status: 'success', content: 'counted apple' }],
      answer: 'One apple.',
      status: 'done',
      steps: 2,
      history: [],
    });
  });

  it('replays a candidate on the cases with no tool run, the same results twice', async () => {
    const first = await runCli(['eval', 'run', 'cases.jsonl', '--agent', 'agent.mjs', '--out', 'good.json'], {
      cwd,
    });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^total\b/m);
    const second = await runCli(
      ['eval', 'run', 'cases.jsonl', '--agent', 'agent.mjs', '--out', 'again.json'],
      { cwd },
    );
    expect(second.status).toBe(0);
    expect(runs()).toBe('');
    const good = JSON.parse(readFileSync(join(cwd, 'good.json'), 'utf8'));
    expect(JSON.parse(readFileSync(join(cwd, 'again.json'), 'utf8'))).toEqual(good);
    expect(good.cases).toHaveLength(3);
    for (const result of good.cases)
      expect(result).toMatchObject({
        scores: { 'answer-equals': 1, 'same-calls': 1 },
        notRecorded: 0,
        steps: 2,
      });
  });

  it('scores a worse candidate lower, counts its calls not recorded, and exits 1 against the baseline', async () => {
    const { status, stdout } = await runCli(
      [
        'eval',
        'run',
        'cases.jsonl',
        '--agent',
        'agent.mjs',
        '--script',
        'worse.json',
        '--out',
        'worse-results.json',
        '--baseline',
        'good.json',
      ],
      { cwd },
    );
    expect(runs()).toBe('');
    const worse = JSON.parse(readFileSync(join(cwd, 'worse-results.json'), 'utf8'));
    for (const result of worse.cases)
      expect(result).toMatchObject({
        scores: { 'answer-equals': 0, 'same-calls': 0 },
        notRecorded: 1,
        answer: 'One pear.',
      });
    expect(worse.totals.notRecorded).toBe(3);
    expect(stdout.match(/^regression: /gm)).toHaveLength(6);
    expect(status).toBe(1);
  });
});
