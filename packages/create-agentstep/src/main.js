import { createProject } from './create-project.js';
import { parseArguments } from './parse-arguments.js';
import { USAGE } from './usage.js';
import { UsageError } from './usage-error.js';

/**
 * @typedef {object} Io Where the command reads and writes.
 * @property {string} cwd The folder a relative DIR or OUTDIR is read from.
 * @property {(text: string) => void} out Prints a line to stdout.
 * @property {(text: string) => void} err Prints a line to stderr.
 */

/**
 * Runs `create-agentstep` with its arguments and returns the exit code: 0 when the project is
 * written (the next steps printed), 2 when the command was called wrong (one line on stderr),
 * 1 when the file system refused (one line naming the file).
 * @param {readonly string[]} argv The arguments after the command's name.
 * @param {Io} io
 * @returns {number}
 */
export function main(argv, io) {
  try {
    const options = parseArguments(argv);
    if (options === 'help') {
      io.out(USAGE);
      return 0;
    }
    const project = createProject({ ...options, cwd: io.cwd });
    io.out(nextSteps(options.directory, project.path, project.names.agentName));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`create-agentstep: ${error.message}`);
      return 2;
    }
    // A system error (no permission, a full disk) says what and where; its stack says nothing more.
    if (error instanceof Error && 'code' in error) {
      io.err(`create-agentstep: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/**
 * @param {string} directory As the user gave it, for `cd`.
 * @param {string} path
 * @param {string} agentName
 */
function nextSteps(directory, path, agentName) {
  const cd = /^[\w./@+-]+$/.test(directory) ? directory : `'${directory.replaceAll("'", "'\\''")}'`;
  return `Created the agent "${agentName}" in ${path}: agent.ts (its tool word_count), script.json,
agent.test.ts and a CDK app (bin/app.ts). Next:

  cd ${cd}
  npm install
  npm start        # runs the agent locally, scripted by script.json; a real model:
                   # npm start -- --model bedrock:<model id> (or openai:<model> with OPENAI_API_KEY)
  npm test         # the agent's tests (vitest)
  npx cdk deploy   # deploys it to your AWS account (credentials and a bootstrapped account)

README.md says more: how to add a tool, choose a model, and what npm start needs (Java 17+).`;
}
