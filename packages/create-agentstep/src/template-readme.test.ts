import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEMPLATE } from './create-project.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifestIn = (folder: string): Manifest =>
  JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;

/** This repository's packages by name: a created project installs their published builds. */
function workspacePackages(): Map<string, string> {
  const folders = [
    ...readdirSync(join(ROOT, 'packages')).map((name) => join(ROOT, 'packages', name)),
    join(ROOT, 'functions'),
    join(ROOT, 'infra'),
  ].filter((folder) => existsSync(join(folder, 'package.json')));
  return new Map(folders.map((folder) => [manifestIn(folder).name, folder]));
}

/** Where `name` resolves from `folder`, as Node.js looks for it (pnpm links each package's own). */
function resolved(name: string, folder: string): string | undefined {
  for (let dir = folder; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
  }
  return undefined;
}

/**
 * The packages `npm install` puts in a created project, as this repository installed them: the
 * template's dependencies and devDependencies, then each package's dependencies, optional ones
 * (those of other platforms are absent) and required peers.
 */
function installedManifests(): Manifest[] {
  const workspace = workspacePackages();
  const template = manifestIn(TEMPLATE);
  // The template is no workspace package: its own dependencies resolve where the repository pins them.
  const pinnedIn = (name: string) =>
    [ROOT, ...workspace.values()].find((folder) => {
      const { dependencies = {}, devDependencies = {} } = manifestIn(folder);
      return name in dependencies || name in devDependencies;
    }) ?? ROOT;
  const queue = Object.keys({ ...template.dependencies, ...template.devDependencies }).map(
    (name): [string, string] => [name, pinnedIn(name)],
  );
  const found = new Map<string, Manifest>();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const [name, from] = next;
    const folder = workspace.get(name) ?? resolved(name, from);
    if (folder === undefined || found.has(folder)) continue;
    const manifest = manifestIn(folder);
    found.set(folder, manifest);
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (peer) => !manifest.peerDependenciesMeta?.[peer]?.optional,
    );
    for (const dependency of [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...peers,
    ])
      queue.push([dependency, folder]);
  }
  return [...found.values()];
}

/** Whether an `engines.node` range leaves out every Node.js 20 (its lowest major, of each alternative, 21 or more). */
function needsNewerThan20(range: string): boolean {
  return range.split('||').every((alternative) => Number(/\d+/.exec(alternative)?.[0] ?? 0) > 20);
}

describe("the template's README", () => {
  it('names every package a created project installs that asks for Node.js 22 (npm warns of each on 20)', () => {
    const newer = installedManifests()
      .filter(({ engines }) => engines?.node !== undefined && needsNewerThan20(engines.node))
      .map(({ name }) => name);
    // The walk finds them: the local engine's own asks for Node.js 22.
    expect(newer).toContain('aws-local-stepfunctions');
    const readme = readFileSync(join(TEMPLATE, 'README.md'), 'utf8');
    expect(newer.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it('synthesizes quietly (cdk synth -q) in its scripts and docs, rather than printing the template', () => {
    const readme = readFileSync(join(TEMPLATE, 'README.md'), 'utf8');
    const synths = readme.match(/cdk synth\b.*$/gm) ?? [];
    expect(synths.length).toBeGreaterThan(0);
    expect(synths.filter((line) => !line.startsWith('cdk synth -q'))).toEqual([]);
    expect(manifestIn(TEMPLATE)).toMatchObject({ scripts: { synth: 'cdk synth -q' } });
  });
});
