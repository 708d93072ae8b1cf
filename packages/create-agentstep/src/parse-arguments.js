import { UsageError } from './usage-error.js';

/**
 * @typedef {object} CreateOptions What to create.
 * @property {string} directory The project's folder, as given.
 * @property {string} [packages] A folder of @agentstep tarballs to depend on, as given.
 */

/**
 * Reads the command line: `help` for `--help`, else the options. Throws a {@link UsageError}
 * naming what is wrong: no DIR, two, an unknown flag or `--packages` without its folder.
 * @param {readonly string[]} argv The arguments after the command's name.
 * @returns {CreateOptions | 'help'}
 */
export function parseArguments(argv) {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  /** @type {string[]} */
  const positional = [];
  /** @type {string | undefined} */
  let packages;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = /** @type {string} */ (argv[index]);
    if (argument === '--packages' || argument.startsWith('--packages=')) {
      packages = argument === '--packages' ? argv[++index] : argument.slice('--packages='.length);
      if (!packages) throw new UsageError('--packages needs a folder: --packages OUTDIR.');
    } else if (argument.startsWith('-')) {
      throw new UsageError(
        `Unknown option "${argument}": create-agentstep DIR [--packages OUTDIR] (--help).`,
      );
    } else {
      positional.push(argument);
    }
  }
  const [directory, ...extra] = positional;
  if (directory === undefined) {
    throw new UsageError('Give the folder to create: create-agentstep DIR (e.g. create-agentstep my-agent).');
  }
  if (extra.length > 0) {
    throw new UsageError(
      `One folder only: received "${directory}" and ${extra.map((e) => `"${e}"`).join(', ')}.`,
    );
  }
  return packages === undefined ? { directory } : { directory, packages };
}
