import { basename, resolve } from 'node:path';

/**
 * @typedef {object} ProjectNames The names a project takes from its folder.
 * @property {string} packageName Its npm package name: the folder's name, lowercased and URL-safe.
 * @property {string} agentName Its agent's name: letters, digits, `_` and `-`, from a letter.
 * @property {string} stackName Its CloudFormation stack's name: letters, digits and `-`, from a letter.
 */

/** What names fall back to when a folder's name has nothing usable (`123`, `...`). */
const FALLBACK = 'agent';

/**
 * The names of the project created in a folder, each valid where it is used, each the folder's own
 * name when that is valid already (`my-agent` → `my-agent` three times).
 * @param {string} directory The project's folder, absolute or relative.
 * @returns {ProjectNames}
 */
export function projectNames(directory) {
  const base = basename(resolve(directory));
  const packageName =
    base
      .toLowerCase()
      .replace(/[^a-z0-9._~-]+/g, '-')
      .replace(/^[._-]+|-+$/g, '')
      .slice(0, 214) || FALLBACK;
  const agentName =
    base
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^[^A-Za-z]+/, '')
      .replace(/-+$/, '')
      .slice(0, 64) || FALLBACK;
  return { packageName, agentName, stackName: agentName.replaceAll('_', '-') };
}
