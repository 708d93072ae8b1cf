import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProject } from './create-project.js';
import { UsageError } from './usage-error.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const read = (path: string) => readFileSync(path, 'utf8');
const packageJsonOf = (path: string) => JSON.parse(read(join(path, 'package.json')));

/** A folder of fake tarballs named as `pnpm pack` names them, and one that is not an @agentstep one. */
function tarballs(names: readonly string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'create-agentstep-pack-'));
  for (const name of [...names, 'create-agentstep-0.1.0.tgz']) writeFileSync(join(folder, name), '');
  return folder;
}

describe('createProject', () => {
  it('writes the project, named after its folder, with nothing left to fill in', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
    const project = createProject({ directory: 'support_bot', cwd });

    expect(project.path).toBe(join(cwd, 'support_bot'));
    expect(project.files).toEqual([
      '.gitignore',
      'README.md',
      'agent.test.ts',
      'agent.ts',
      'bin/app.ts',
      'cdk.json',
      'package.json',
      'script.json',
      'tsconfig.json',
      'vitest.config.ts',
    ]);
    for (const file of project.files) expect(read(join(project.path, file))).not.toMatch(/\{\{|workspace:/);
    expect(read(join(project.path, 'agent.ts'))).toContain("name: 'support_bot'");
    expect(read(join(project.path, 'bin/app.ts'))).toContain("new Stack(app, 'support-bot')");
    expect(read(join(project.path, '.gitignore')).split('\n')).toEqual(
      expect.arrayContaining(['node_modules/', 'cdk.out/', '.agentstep/']),
    );
    expect(JSON.parse(read(join(project.path, 'cdk.json'))).app).toBe('npx tsx bin/app.ts');
  });

  it('depends on the @agentstep packages of its own version from the registry', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
    const packageJson = packageJsonOf(createProject({ directory: 'my-agent', cwd }).path);

    expect(packageJson).toMatchObject({ name: 'my-agent', private: true, type: 'module' });
    expect(packageJson.dependencies).toMatchObject({
      '@agentstep/runtime': `^${version}`,
      '@agentstep/cli': `^${version}`,
      '@agentstep/cdk': `^${version}`,
    });
    expect(packageJson.overrides).toBeUndefined();
    expect(packageJson.scripts).toMatchObject({
      start: 'agentstep run "Count the words in: one two three"',
      test: 'vitest run',
    });
  });

  it('with packages, depends on the tarballs and overrides every @agentstep package with its own', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
    const names = ['runtime', 'cli', 'cdk', 'local', 'protocol', 'functions'];
    const pack = tarballs(names.map((name) => `agentstep-${name}-0.1.0.tgz`));
    const packageJson = packageJsonOf(createProject({ directory: 'my-agent', packages: pack, cwd }).path);

    const file = (name: string) => `file:${join(pack, `agentstep-${name}-0.1.0.tgz`)}`;
    expect(packageJson.overrides).toEqual(
      Object.fromEntries(names.map((name) => [`@agentstep/${name}`, file(name)])),
    );
    expect(packageJson.dependencies).toMatchObject({
      '@agentstep/runtime': file('runtime'),
      '@agentstep/cli': file('cli'),
      '@agentstep/cdk': file('cdk'),
    });
    expect(Object.keys(packageJson.dependencies)).not.toContain('@agentstep/local');
  });

  it('reads a relative packages folder from cwd', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
    mkdirSync(join(cwd, 'out'));
    for (const name of ['runtime', 'cli', 'cdk'])
      writeFileSync(join(cwd, 'out', `agentstep-${name}-0.2.0-rc.1.tgz`), '');
    const packageJson = packageJsonOf(createProject({ directory: 'my-agent', packages: 'out', cwd }).path);

    expect(packageJson.dependencies['@agentstep/cdk']).toBe(
      `file:${join(cwd, 'out', 'agentstep-cdk-0.2.0-rc.1.tgz')}`,
    );
  });

  it.each([
    [['agentstep-runtime-0.1.0.tgz', 'agentstep-cli-0.1.0.tgz'], /no tarball of @agentstep\/cdk/],
    [['README.md'], /no agentstep-\*\.tgz in/],
    [['agentstep-cdk-0.1.0.tgz', 'agentstep-cdk-0.2.0.tgz'], /two tarballs of @agentstep\/cdk/],
  ])('refuses packages of %j, writing nothing', (files, message) => {
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
    const pack = tarballs(files);

    expect(() => createProject({ directory: 'my-agent', packages: pack, cwd })).toThrow(message);
    expect(existsSync(join(cwd, 'my-agent'))).toBe(false);
  });

  it('refuses a packages folder that does not exist', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));

    expect(() => createProject({ directory: 'my-agent', packages: 'missing', cwd })).toThrow(
      /--packages missing: cannot read .*missing/,
    );
  });

  it('writes into an empty folder and refuses one with files, or a file', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'create-agentstep-'));
    mkdirSync(join(cwd, 'empty'));
    createProject({ directory: 'empty', cwd });
    writeFileSync(join(cwd, 'file'), '');

    expect(readdirSync(join(cwd, 'empty'))).toContain('agent.ts');
    expect(() => createProject({ directory: 'empty', cwd })).toThrow(
      new UsageError('empty exists and is not empty: choose a new folder, or empty this one.'),
    );
    expect(() => createProject({ directory: 'file', cwd })).toThrow(/file exists and is not a folder/);
  });
});
