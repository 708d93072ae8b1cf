import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEMPLATE } from './create-project.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const manifest = (folder: string): Manifest => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
const pins = ({ dependencies = {}, devDependencies = {} }: Manifest) =>
  Object.entries({ ...dependencies, ...devDependencies });

/** The repository's root and every workspace package but this one, from pnpm-workspace.yaml. */
function repoManifests(): Manifest[] {
  const globs = [...readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^ {2}- (\S+)$/gm)].map(
    ([, glob]) => glob as string,
  );
  const folders = globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(join(ROOT, glob.slice(0, -2))).map((name) => join(glob.slice(0, -2), name))
      : [glob],
  );
  return [
    ROOT,
    ...folders.filter((folder) => folder !== 'packages/create-agentstep').map((f) => join(ROOT, f)),
  ].map(manifest);
}

describe('the template', () => {
  it('pins each third-party package exactly as this repository does', () => {
    const repo = repoManifests().flatMap(pins);
    const template = pins(manifest(TEMPLATE)).filter(([name]) => !name.startsWith('@agentstep/'));

    expect(template.length).toBeGreaterThan(0);
    for (const [name, version] of template) {
      const repoVersions = [...new Set(repo.filter(([pinned]) => pinned === name).map(([, range]) => range))];
      expect({ name, versions: repoVersions }).toEqual({ name, versions: [version] });
    }
  });
});
