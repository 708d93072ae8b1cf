import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

/** Runs `main` in a new temporary folder, returning its exit code and what it printed. */
function run(argv: readonly string[], prepare: (cwd: string) => void = () => {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
  prepare(cwd);
  const out: string[] = [];
  const err: string[] = [];
  const code = main(argv, { cwd, out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, cwd, out: out.join('\n'), err: err.join('\n') };
}

describe('main', () => {
  it('creates the project and prints the next steps', () => {
    const { code, cwd, out, err } = run(['my agent']);

    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain(`Created the agent "my-agent" in ${join(cwd, 'my agent')}`);
    for (const step of ["cd 'my agent'", 'npm install', 'npm start', 'npm test', 'npx cdk deploy']) {
      expect(out).toContain(`\n  ${step}`);
    }
  });

  it('prints its help', () => {
    const { code, out } = run(['--help']);

    expect(code).toBe(0);
    expect(out).toMatch(/^create-agentstep DIR \[--packages OUTDIR\]/);
  });

  it.each([
    [
      [],
      () => {},
      'create-agentstep: Give the folder to create: create-agentstep DIR (e.g. create-agentstep my-agent).',
    ],
    [
      ['my-agent', '--yes'],
      () => {},
      'create-agentstep: Unknown option "--yes": create-agentstep DIR [--packages OUTDIR] (--help).',
    ],
    [
      ['my-agent'],
      (cwd: string) => {
        mkdirSync(join(cwd, 'my-agent'));
        writeFileSync(join(cwd, 'my-agent', 'notes.txt'), '');
      },
      'create-agentstep: my-agent exists and is not empty: choose a new folder, or empty this one.',
    ],
  ])('refuses %j with exit code 2 and one line', (argv, prepare, line) => {
    expect(run(argv, prepare)).toMatchObject({ code: 2, out: '', err: line });
  });

  it('runs as a plain node binary, before anything is installed', () => {
    const bin = fileURLToPath(new URL('../bin/create-agentstep.js', import.meta.url));
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
    const created = spawnSync(process.execPath, [bin, 'my-agent'], { cwd, encoding: 'utf8' });
    const refused = spawnSync(process.execPath, [bin, 'my-agent'], { cwd, encoding: 'utf8' });

    expect(created).toMatchObject({ status: 0, stderr: '' });
    expect(refused).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'create-agentstep: my-agent exists and is not empty: choose a new folder, or empty this one.\n',
    });
  });
});
