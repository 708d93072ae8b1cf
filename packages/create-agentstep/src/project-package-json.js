import { UsageError } from './usage-error.js';

/**
 * @typedef {object} PackageJson The fields of a project's package.json this module rewrites.
 * @property {string} name
 * @property {Record<string, string>} dependencies
 * @property {Record<string, string>} [devDependencies]
 * @property {Record<string, string>} [overrides]
 */

/** The scope of the packages this command may point at local tarballs. */
const SCOPE = '@agentstep/';

/**
 * The created project's package.json from the template's: its name, and each @agentstep
 * dependency at `^version` (the registry's), or with `tarballs` at its tarball, where every
 * tarball is also an npm override so the packages' dependencies on each other resolve to the
 * tarballs too. Throws a {@link UsageError} naming an imported package with no tarball.
 * @template {PackageJson} T
 * @param {T} template The template's package.json.
 * @param {{ name: string, version: string, tarballs?: ReadonlyMap<string, string> }} options
 * @returns {T}
 */
export function projectPackageJson(template, { name, version, tarballs }) {
  /** @param {string} dependency */
  const spec = (dependency) => {
    if (tarballs === undefined) return `^${version}`;
    const tarball = tarballs.get(dependency);
    if (tarball === undefined) {
      throw new UsageError(
        `--packages has no tarball of ${dependency} (found ${[...tarballs.keys()].join(', ')}): pack every package.`,
      );
    }
    return tarball;
  };
  const dependencies = Object.fromEntries(
    Object.entries(template.dependencies).map(([dependency, range]) => [
      dependency,
      dependency.startsWith(SCOPE) ? spec(dependency) : range,
    ]),
  );
  return {
    ...template,
    name,
    dependencies,
    ...(tarballs === undefined ? {} : { overrides: Object.fromEntries(tarballs) }),
  };
}
