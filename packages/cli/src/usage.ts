import { DEMO_USAGE } from './commands/demo-command.js';
import { PARSE_USAGE } from './commands/parse-command.js';
import { PROMPT_USAGE } from './commands/prompt-command.js';

/** Help for `agentstep` as a whole. */
export const USAGE = `agentstep <command> [options]

Commands:
  demo      run a scripted agent through the protocol, in memory
  parse     parse model output from stdin into protocol events (JSON lines)
  prompt    print the system prompt for a set of tools

${DEMO_USAGE}

${PARSE_USAGE}

${PROMPT_USAGE}`;
