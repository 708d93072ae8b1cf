import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This repository's root folder. */
export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/** The packages users install, by folder (docs/releasing.md lists them). */
export const PUBLISHED_FOLDERS = [
  'packages/api',
  'packages/cli',
  'packages/client',
  'packages/console',
  'packages/create-agentstep',
  'packages/local',
  'packages/protocol',
  'packages/runtime',
  'functions',
  'infra',
] as const;

/** The published packages' names, as their manifests give them (`@agentstep/cdk`, `create-agentstep`). */
export function publishedNames(): string[] {
  return PUBLISHED_FOLDERS.map(
    (folder) =>
      (JSON.parse(readFileSync(join(REPOSITORY, folder, 'package.json'), 'utf8')) as { name: string }).name,
  );
}

/** The file `pnpm pack` names a package's tarball by, before its version: `agentstep-cdk` for `@agentstep/cdk`. */
export function tarballPrefix(name: string): string {
  return name.replace(/^@/, '').replace('/', '-');
}
