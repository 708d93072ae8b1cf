import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/** A tarball of an @agentstep package as `pnpm pack` names it: `agentstep-runtime-0.1.0.tgz`. */
const TARBALL = /^agentstep-([a-z0-9][a-z0-9._-]*?)-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.tgz$/;

/**
 * The @agentstep packages in a folder of tarballs, each by name to its `file:` dependency
 * (an absolute path). Throws a {@link UsageError} when the folder cannot be read, holds none, or
 * holds two versions of one package.
 * @param {string} folder The folder, absolute or relative to `cwd`.
 * @param {string} cwd The folder a relative path is read from.
 * @returns {Map<string, string>} `@agentstep/runtime` → `file:/…/agentstep-runtime-0.1.0.tgz`.
 */
export function localPackages(folder, cwd) {
  const absolute = resolve(cwd, folder);
  /** @type {string[]} */
  let files;
  try {
    files = readdirSync(absolute);
  } catch (error) {
    throw new UsageError(
      `--packages ${folder}: cannot read ${absolute} (${/** @type {Error} */ (error).message}).`,
      {
        cause: error,
      },
    );
  }
  /** @type {Map<string, string>} */
  const packages = new Map();
  for (const file of files.sort()) {
    const match = TARBALL.exec(file);
    if (!match) continue;
    const name = `@agentstep/${match[1]}`;
    const previous = packages.get(name);
    if (previous !== undefined) {
      throw new UsageError(
        `--packages ${folder} holds two tarballs of ${name} (${basename(previous)} and ${file}): keep one.`,
      );
    }
    packages.set(name, `file:${join(absolute, file)}`);
  }
  if (packages.size === 0) {
    throw new UsageError(
      `--packages ${folder}: no agentstep-*.tgz in ${absolute}; write them with npm run pack -- ${folder}.`,
    );
  }
  return packages;
}
