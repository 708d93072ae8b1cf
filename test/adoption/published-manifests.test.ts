import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_FOLDERS, REPOSITORY } from '../support/published-packages.js';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  engines?: { node?: string };
  files?: string[];
  exports?: Record<string, string>;
  publishConfig?: { exports?: Record<string, string | { types: string; default: string }> };
}

function manifestOf(folder: string): Manifest {
  return JSON.parse(readFileSync(join(REPOSITORY, folder, 'package.json'), 'utf8')) as Manifest;
}

/** Every workspace package's folder: the repository's root, `packages/*` and the other top-level ones. */
function workspaceFolders(): string[] {
  const packages = readdirSync(join(REPOSITORY, 'packages')).map((name) => `packages/${name}`);
  return ['.', ...packages, 'functions', 'infra', 'test', 'examples'].filter((folder) =>
    existsSync(join(REPOSITORY, folder, 'package.json')),
  );
}

/** Where a source file's build lands: `./src/a.ts` → `./dist/src/a` (the functions': `./*\/a.ts` → `./dist/*\/a`). */
function builtPath(source: string, outDir: string): string {
  return source.replace(/^\.\/(.*)\.tsx?$/, `./${outDir}/$1`);
}

describe('the published packages', () => {
  it('are every workspace package but the root, the tests and the examples', () => {
    const published = workspaceFolders().filter((folder) => !manifestOf(folder).private);
    expect(published.sort()).toEqual([...PUBLISHED_FOLDERS].sort());
  });

  it('share one version, a license, a Node.js floor and their files', () => {
    const versions = new Set(PUBLISHED_FOLDERS.map((folder) => manifestOf(folder).version));
    expect([...versions]).toHaveLength(1);
    for (const folder of PUBLISHED_FOLDERS) {
      const manifest = manifestOf(folder);
      expect(manifest.license, folder).toBe('Apache-2.0');
      expect(manifest.engines?.node, folder).toBe('>=20.11');
      expect(manifest.files?.length, folder).toBeGreaterThan(0);
    }
  });

  it('publish, for every export of the sources, its built JavaScript and declarations', () => {
    const built = PUBLISHED_FOLDERS.filter((folder) => manifestOf(folder).publishConfig);
    for (const folder of built.filter((name) => name !== 'packages/cli')) {
      const { exports = {}, publishConfig } = manifestOf(folder);
      const tsconfig = JSON.parse(readFileSync(join(REPOSITORY, folder, 'tsconfig.json'), 'utf8'));
      const outDir: string = tsconfig.compilerOptions.outDir;
      const expected = Object.fromEntries(
        Object.entries(exports).map(([subpath, source]) => [
          subpath,
          /\.tsx?$/.test(source)
            ? { types: `${builtPath(source, outDir)}.d.ts`, default: `${builtPath(source, outDir)}.js` }
            : source,
        ]),
      );
      expect(publishConfig?.exports, folder).toEqual(expected);
    }
  });

  it("publish the CLI's prebuilt bundle with the declarations of its sources", () => {
    const { exports = {}, publishConfig } = manifestOf('packages/cli');
    expect(Object.keys(publishConfig?.exports ?? {})).toEqual(Object.keys(exports));
    expect(publishConfig?.exports?.['.']).toEqual({
      types: './dist/src/index.d.ts',
      default: './dist/prebuilt/main.mjs',
    });
    expect(publishConfig?.exports?.['./testing']).toEqual({
      types: './dist/src/testing/index.d.ts',
      default: './dist/prebuilt/testing.mjs',
    });
  });
});
