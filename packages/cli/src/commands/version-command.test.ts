import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';

const fixture = (file: string) => fileURLToPath(new URL(`../testing/fixtures/${file}`, import.meta.url));
const COUNTER = readFileSync(fixture('counter-agent.ts'), 'utf8');
/** Variants are written beside the fixture (so they import what it imports), and removed after each test. */
const written: string[] = [];

/** An agent file of `text` beside the counter fixture, its script included. */
function agentFile(text: string): string {
  const file = fixture(`version-${written.length}.tmp.ts`);
  writeFileSync(file, text);
  written.push(file);
  return file;
}

afterEach(() => {
  for (const file of written.splice(0)) rmSync(file, { force: true });
});

/** `agentstep version` of the agent file `text`. */
async function versionOf(text: string, flags: string[] = []): Promise<string> {
  const { status, stdout, stderr } = await memoryProject().run([
    'version',
    '--agent',
    agentFile(text),
    ...flags,
  ]);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  return stdout.trim();
}

describe('agentstep version', () => {
  it('changes with a tool’s schema, the instructions or a flag, and not with a comment', async () => {
    const base = await versionOf(COUNTER);
    expect(base).toMatch(/^[0-9a-f]{12}$/);
    expect(await versionOf(COUNTER.replace('/** Counts the words', '/** Tallies the words'))).toBe(base);
    expect(await versionOf(`// A comment of its own.\n${COUNTER}`)).toBe(base);
    const instructions = COUNTER.replace('You count words', 'You count the words');
    const schema = COUNTER.replace('z.string().min(1)', 'z.string().min(2)');
    const versions = [
      await versionOf(instructions),
      await versionOf(schema),
      await versionOf(COUNTER, ['--max-steps', '7']),
    ];
    expect(new Set([base, ...versions]).size).toBe(4);
  });

  it('--json: the hash and what went into it', async () => {
    const { stdout } = await memoryProject().run(['version', '--agent', agentFile(COUNTER), '--json']);
    const { version, inputs } = JSON.parse(stdout);
    expect(version).toBe(await versionOf(COUNTER));
    expect(inputs).toMatchObject({
      instructions: 'You count words for the user, with word_count.',
      tools: expect.arrayContaining([
        expect.objectContaining({ name: 'word_count', description: 'Counts the words of a text.' }),
      ]),
      definition: expect.objectContaining({ StartAt: expect.any(String) }),
    });
  });

  it('each turn records the version it ran on, as its turn_start', async () => {
    const file = agentFile(COUNTER);
    const project = memoryProject();
    const version = (await project.run(['version', '--agent', file])).stdout.trim();
    const { stdout } = await project.run([
      'run',
      'Count: a b',
      '--agent',
      file,
      '--store',
      'memory',
      '--json',
    ]);
    const starts = jsonLines(stdout).filter((line) => line.type === 'turn_start');
    expect(starts).toEqual([
      expect.objectContaining({
        payload: { turn: expect.any(String), version },
        content: expect.stringContaining(version),
      }),
    ]);
  });
});
