import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localPackages } from './local-packages.js';
import { projectNames } from './project-names.js';
import { projectPackageJson } from './project-package-json.js';
import { UsageError } from './usage-error.js';

/** The project's files, as they are written but for their placeholders (`{{agentName}}`). */
export const TEMPLATE = fileURLToPath(new URL('../template/', import.meta.url));
/** npm leaves `.gitignore` out of a package's tarball: the template's is `gitignore`, renamed here. */
const RENAMED = new Map([['gitignore', '.gitignore']]);

/**
 * @typedef {object} CreatedProject
 * @property {string} path The project's folder, absolute.
 * @property {import('./project-names.js').ProjectNames} names
 * @property {string[]} files The files written, relative to `path`, sorted.
 */

/**
 * Writes a new project into `directory` (created, or an empty folder): the template's files with
 * the names the folder gives. Throws a {@link UsageError}, before writing anything, when the folder
 * is not empty or `packages` lacks a tarball the project needs.
 * @param {import('./parse-arguments.js').CreateOptions & { cwd: string }} options
 * @returns {CreatedProject}
 */
export function createProject({ directory, packages, cwd }) {
  const path = resolve(cwd, directory);
  refuseUsed(directory, path);
  const names = projectNames(path);
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const template = JSON.parse(readFileSync(join(TEMPLATE, 'package.json'), 'utf8'));
  const packageJson = projectPackageJson(template, {
    name: names.packageName,
    version,
    ...(packages === undefined ? {} : { tarballs: localPackages(packages, cwd) }),
  });
  /** @type {Record<string, string>} */
  const values = { ...names };
  const files = templateFiles().map((file) => {
    const target = RENAMED.get(file) ?? file;
    const text =
      file === 'package.json'
        ? `${JSON.stringify(packageJson, null, 2)}\n`
        : render(readFileSync(join(TEMPLATE, file), 'utf8'), values, file);
    mkdirSync(dirname(join(path, target)), { recursive: true });
    writeFileSync(join(path, target), text);
    return target;
  });
  return { path, names, files: files.sort() };
}

/**
 * @param {string} directory As given, for the message.
 * @param {string} path
 */
function refuseUsed(directory, path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return;
  if (!stats.isDirectory())
    throw new UsageError(`${directory} exists and is not a folder: choose a new name.`);
  if (readdirSync(path).length > 0) {
    throw new UsageError(`${directory} exists and is not empty: choose a new folder, or empty this one.`);
  }
}

/** The template's files, relative to it, with `/` between folders. */
function templateFiles() {
  return readdirSync(TEMPLATE, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(join(TEMPLATE, file)).isFile())
    .map((file) => file.split(sep).join('/'));
}

/**
 * The text with each `{{key}}` replaced by its value; a key with no value is a template's bug.
 * @param {string} text
 * @param {Record<string, string>} values
 * @param {string} file For the message.
 */
function render(text, values, file) {
  return text.replace(/\{\{(\w+)\}\}/g, (_, /** @type {string} */ key) => {
    const value = values[key];
    if (value === undefined) throw new Error(`The template's ${file} names {{${key}}}, which has no value.`);
    return value;
  });
}
