/** Help for `agentstep demo`. */
const DEMO_USAGE = `agentstep demo

Runs a scripted two-step agent through the protocol: a parallel batch of three tools (one fails),
results in call order, every event logged, and the model's context rebuilt from the log.`;

/** Help for `agentstep parse`. */
const PARSE_USAGE = `agentstep parse [--mode event|token] [--chunk-size N] [--chunks-json]

Reads one model step's output from stdin and prints its events, one JSON line each.
  --mode event|token   whole units (default) or prose and thinking as they arrive
  --chunk-size N       feed the parser N characters at a time
  --chunks-json        stdin is a JSON array of strings, fed to the parser in order`;

/** Help for `agentstep prompt`. */
const PROMPT_USAGE = `agentstep prompt --tools <file.json> [--instructions TEXT]

Prints the system prompt for a set of tools. The file holds a JSON array of
{"name": "...", "description": "...", "parameters": {JSON Schema of the arguments}}.`;

/** Help for `agentstep` as a whole. */
export const USAGE = `agentstep <command> [options]

Commands:
  demo      run a scripted agent through the protocol, in memory
  parse     parse model output from stdin into protocol events (JSON lines)
  prompt    print the system prompt for a set of tools

${DEMO_USAGE}

${PARSE_USAGE}

${PROMPT_USAGE}`;
