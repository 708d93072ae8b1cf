import { builtInProviders } from '@agentstep/runtime/models';
import { AGENT_OPTIONS_USAGE } from './agent-file/agent-flags.js';

/** The built-in model providers' lines of `--model`'s help, from the registry. */
const PROVIDERS_USAGE = builtInProviders()
  .providers.map(({ name, description }) => `                               ${name}: ${description}`)
  .join('\n');

/** Help for `agentstep run` and the commands that read a session. */
const RUN_USAGE = `agentstep run [PROMPT] [options]

Runs one turn of the agent locally, with no AWS account: the state machine CDK synthesizes runs on
an embedded engine, every task on the handler its Lambda runs, the event log in DynamoDB Local
(data in .agentstep/). Exit code 0: finished; 3: a limit or budget stopped it; 1: it failed.
The agent is your agent file's: the agent options (above) and the options below override what it
sets (--script or --cassette without --model plays that file over its model; --model-profile,
budgets and the context flags merge; --provider adds).
  --session ID               continue a session (default: a new one)
  --take-over                take the session even from a turn whose lease still runs (a dead run)
  --if-busy reject|enqueue|interrupt
                             while another turn of --session runs: refuse (default), queue this
                             message for its own turn, or cancel that turn and start at once
  --lease SECONDS            how long this turn holds its session without a write before another
                             turn may take it over (default 1800); each step renews it
  --model scripted|replay|<provider>:<model>
                             scripted (default) plays --script FILE or the built-in demo script,
                             from its first step in every turn; replay plays --cassette FILE, by
                             step of the session; <provider>:<model> a registered provider's model:
${PROVIDERS_USAGE}
  --provider FILE            add a model provider (repeatable): FILE is a JavaScript module whose
                             default export is { name, description, keyVariable?, model(modelId,
                             connection) }, model returning { id, stream(request) } (README: Models)
  --base-url URL             the provider's server (default: the provider's API)
  --model-profile NAME=MODEL a named model profile (repeatable), MODEL as --model names it: turns
                             that ask for NAME (a workflow agent's REQUIRES "NAME") run on it; a
                             scripted profile of a scripted run plays the run's own script
  --record FILE              write each model step's output to a cassette for --model replay
  --context-window TOKENS    input tokens one request may hold (a whole number, 1000 or more), over
                             the model's known window and the agent file's context.windowTokens;
                             past context.compactAt of it (default 0.8) a step first compacts the
                             session's context. Without it, a provider's model with no known window
                             is not compacted, and run says so once (never for scripted or replay)
  --compaction summarize|drop   how a compaction replaces the older part of the context: a summary
                             (default; written by the agent file's context.summaryModel, else the
                             turn's model) or a note of what was left out
  --max-steps N              model steps this turn may take (default 50)
  --steps-per-execution N    model steps per execution before it continues in a fresh one (default 25)
  --sequential               run each batch's calls one after another (B3), not at once
  --approve TOOL,...         calls of these tools (* for every tool) wait for a person's approval
                             before they run: at a terminal, run asks [y]es / [n]o / [e]dit for
                             each; otherwise (or from another shell) use agentstep approve
  --approval-timeout SECONDS how long a call waits for a decision before it fails (default 86400)
  --chaos P --seed N         deliver each task twice with probability P (at-least-once delivery)
  --store dynamodb-local|memory   where the log lives (default dynamodb-local; memory without Java)
  --max-tokens N             budget: input + output tokens of the session (all its turns)
  --max-cost USD             budget: estimated cost of the session, from the price table
  --max-wall SECONDS         budget: wall-clock time of this turn
                             (checked before each model step; a spent budget exits with code 3)
  --prices FILE              JSON prices, USD per million tokens, merged over the built-in table:
                             {"openai:my-model": {"input": 1, "output": 2, "cacheRead": 0.1}}
  --json                     the spec's events as JSON lines, with their seq, and a metric per step
  --mode token|event         token: thinking and prose as they stream (default for people);
                             event: whole events once logged (default with --json)
  --tenant NAME              the session is tenant NAME's, as serve keeps it: its suspension and
                             ceiling apply (a suspended tenant exits 1; one past its ceiling, 3)
  --tenant-ceiling USD_PER_DAY[,USD_PER_MONTH]  every tenant's ceiling, as serve's (below)
  --tenant-token-ceiling TOKENS_PER_DAY[,TOKENS_PER_MONTH]  the same in tokens, as serve's

agentstep events ID [--json]   the session's log (--json: whole events, one per line)
agentstep fork ID --at SEQ [--session NEWID] [--json]
                               a new session sharing ID's log up to SEQ (a turn's end or a
                               batch's results); no tool runs again; run --session NEWID goes on
agentstep context ID [--at SEQ]
                               the messages the model would see next, as JSON, the log's latest
                               compaction applied; --at: as of SEQ (the session's events up to SEQ)
agentstep stats ID             what the session's local runs cost (tokens, USD, time), as JSON
agentstep version [--json] [agent options]
                               the agent's version: a short hash of its instructions, models, tools
                               (names, descriptions, schemas), MCP servers, limits, budget, context
                               settings and loop, as run would run it (comments never change it);
                               every turn records the version it ran on (turn_start); --json: the
                               hash and what went into it
agentstep tenants suspend TENANT|--all [--reason TEXT]
agentstep tenants resume TENANT|--all
agentstep tenants set-ceiling TENANT [--usd-per-day X] [--usd-per-month Y]
                               [--tokens-per-day N] [--tokens-per-month N] | --none
agentstep tenants show TENANT  the kill switch: a suspended tenant (--all: every tenant) starts no
                               turn (403 TenantSuspended) and serve cancels its running turns
                               within 2 seconds. set-ceiling: what the tenant may spend on models
                               (over serve --tenant-ceiling); past it, new turns answer 429
                               TenantCeilingReached and running ones end limit before their next
                               model step. show: suspension, ceiling and spend so far, as JSON.
                               Deployed: the operator function (output OperatorFunctionName)`;

/** Help for `agentstep approvals` and `agentstep approve`. */
const APPROVALS_USAGE = `agentstep approvals SESSION [--json] [--url URL] [--token NAME] [agent options]
agentstep approve SESSION ID [--deny] [--reason TEXT] [--args JSON] [--json] [--url URL]
                  [--token NAME] [agent options]

approvals lists the session's calls waiting for a decision, one line each (ID, tool, arguments,
when requested and when it expires; --json: the API's {"approvals": [...]}). approve decides one:
it approves the call (--args: with these arguments instead, a JSON object the tool must accept)
or denies it (--deny, with --reason for the model to read), and the run waiting on it goes on in
whichever shell it runs. It prints one sentence (--json: {"id", "decision"}).
  --url URL         a running agentstep serve (default: AGENTSTEP_URL, else the local store of
                    .agentstep/, where decisions are recorded as made by your OS user)
  --token NAME      the bearer token for --url (with serve --auth dev: the tenant's name)
  agent options     local store only: the agent whose tools check edited --args (its MCP servers'
                    tools too: approve --args asks them for their tools)
Exit code 0: listed or decided; 1: the session or approval does not exist, the call was decided
already, or its tool refuses the --args (the fields named); 2: the command was called wrong.`;

/** Help for `agentstep serve`. */
const SERVE_USAGE = `agentstep serve [--port N] [--host H] [--allowed-hosts NAMES] [--cors ORIGINS]
                [--auth none|dev|jwt] [--tenant-ceiling USD_PER_DAY[,USD_PER_MONTH]]
                [--tenant-token-ceiling TOKENS_PER_DAY[,TOKENS_PER_MONTH]] [run options]

Serves the HTTP API (README: HTTP API) over the local engine and DynamoDB Local, and the web
console at / (README: Web console; its address on stderr). The first line on stdout is
"listening on http://HOST:PORT" once it accepts requests; Ctrl-C stops it.
  --port N             the port (default 3000; 0: any free one)
  --host H             the address to listen on (default 127.0.0.1)
  --allowed-hosts NAME,...  Host names it answers besides its address (*.example.com: the names
                       under example.com; no ports); a request for any other Host gets 421, so a
                       web page cannot reach it by DNS rebinding. On a loopback address (the
                       default) localhost and the loopback addresses are its own; on 0.0.0.0 or ::
                       also the address a request arrived at. Not --fetch-hosts, the hosts the
                       agent's http_fetch may fetch
  --cors ORIGIN,...    the origins whose web pages may call the API (CORS), each as the browser
                       sends it: https://app.example.com, http://localhost:5173 (no path, no "*").
                       Their preflights pass without credentials; other origins get no CORS
                       headers, so a browser refuses their pages the answers (default: none)
  --auth none|dev|jwt  none: every request acts for one tenant (default); dev: the tenant is the
                       name in "Authorization: Bearer <name>", and a request without one gets 401;
                       jwt: the tenant is the sub of a bearer JWT of --jwt-issuer for
                       --jwt-audience, as the deployed API checks (an exp is required, the sub
                       must be a non-empty string); the console signs in there
  --jwt-issuer URL     with --auth jwt: the OIDC issuer, exactly the tokens' iss
  --jwt-audience AUD   with --auth jwt: an aud the tokens must carry
  --console-client-id ID  with --auth jwt: the console's OIDC client, whose redirect URI is the
                       console's address (default: the audience)
  --tenant-ceiling USD_PER_DAY[,USD_PER_MONTH]  what every tenant may spend on priced models, in US
                       dollars per UTC day (and month); agentstep tenants set-ceiling overrides it
                       per tenant. Each model step reserves its estimated cost first; past the
                       ceiling, new turns answer 429 TenantCeilingReached (Retry-After: the
                       period's end) and running turns end limit before their next model step
  --tenant-token-ceiling TOKENS_PER_DAY[,TOKENS_PER_MONTH]  the same in tokens (input + output,
                       priced models or not), alone or beside --tenant-ceiling
Every turn runs with the model, tool, limit, budget and context options of \`agentstep run\` given
here (--context-window TOKENS, --compaction summarize|drop); a provider's model with no known
context window is named once at start-up.`;

/** Help for `agentstep invoke`. */
const INVOKE_USAGE = `agentstep invoke --input JSON|@FILE [--events] [run options]

Starts one execution of the agent's state machine with the input an AWS service would send
(EventBridge, a parent state machine, a queue): {"message", "session"?, "tenant"?, "requestId"?,
"maxSteps"?, "stepsPerExecution"?, "budget"?, "toolExecution"?}. Waits for the turn to end across
executions and prints the execution's output as one JSON line: {"session", "turn", "status",
"answer", "usage", "message", "requestId"?}. The same requestId twice runs one turn.
--events also prints the event that announced the turn's end, as EventBridge gets it.
Exit code 0: the execution succeeded (whatever the turn's status); 1: it failed (a bad input names
its field); 2: the command was called wrong. The model, tool, limit and budget options of
\`agentstep run\` configure the agent.`;

/** Help for `agentstep smoke`. */
const SMOKE_USAGE = `agentstep smoke --stack NAME [--region R] [--token JWT] [--timeout SECONDS]
agentstep smoke --url URL [--token NAME] [--timeout SECONDS]

Checks an AgentStep deployment end to end with the scripted smoke agent (infra/smoke/agent.js of
@agentstep/cdk), one line per check (ok, FAIL or skip, its name, what it found), then a summary:
  turn            POST /sessions, its stream dropped after two events and resumed after the last
                  seq it gave: every event once, up to a call waiting for approval
  parallel batch  the batch's other calls succeed while one of its calls waits for a person
  approval        the waiting call approved through the API runs; the turn ends done, its batch's
                  results in call order
  cancel          a second turn, waiting for approval, cancelled: it ends cancelled, nothing waits
  trigger         an EventBridge event starts a turn through the stack's rule (stack only)
  console         the console's config.json is one the console reads (where there is a console)
It leaves no turn running: what a failed or stopped (Ctrl-C) check left is cancelled. --stack: a
stack deployed from AgentStepSmokeStack (README: Your first deploy), its outputs read from
CloudFormation with the AWS environment's credentials, in --region or else the environment's
(AWS_REGION, your profile's); requests are SigV4-signed unless --token gives the JWT its API takes.
--url: agentstep serve --agent node_modules/@agentstep/cdk/smoke/agent.js (--token: as for
approvals). --timeout: how long each check may take (default 300).
Exit code 0: no check failed; 1: one did (or the stack could not be read); 2: called wrong.`;

/** Help for `agentstep traces`. */
const TRACES_USAGE = `agentstep traces SESSION [--otlp URL | --json] [--capture-content] [agent options]

Sends the session's ended turns as OpenTelemetry spans, derived from its log (GenAI semantic
conventions 1.45: a turn's invoke_agent span, a chat span per model request, an execute_tool span
per call, approvals and compactions as span events, a sub-agent's turn linked from its call), one
trace per turn with ids from the session and turn, so sending a session again sends the same spans.
  --otlp URL           an OTLP/HTTP collector (http://127.0.0.1:4318: /v1/traces is added); else
                       OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT. Headers,
                       protocol (http/protobuf, the default, or http/json) and the service's name
                       from OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME
  --json               print the spans instead, one JSON object per line
  --capture-content    put prompts, answers, tool arguments and results in the spans (left out
                       by default)
With OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT set, agentstep run and serve send each turn's spans as it
ends. The agent's name (gen_ai.agent.name) is its agent file's, else "agentstep".
Exit code 0: sent or printed; 1: the session has no events, or the collector refused them; 2:
called wrong.`;

/** Help for `agentstep eval`. */
const EVAL_USAGE = `agentstep eval export SESSION... [--tenant T] > cases.jsonl
agentstep eval run cases.jsonl [--scorer SPEC]... [--out FILE] [--baseline FILE] [--tolerance N]
                   [run options]

export writes each ended turn of the sessions (of --tenant T: as serve and the API keep them) as a
test case, one JSON line each: the log before the turn (its context), its message, the calls it made
with their recorded outcomes, its answer, status, model steps and usage.
run replays each case with the candidate agent (the run options: --agent FILE, --model, --script,
...): its turn runs from the case's context, and each call it makes is answered from the recording
when the same tool was called with the same arguments, else fails "not recorded": no tool ever
runs. It prints a table (each case's scores, steps, tokens, cost, calls not recorded, and the
totals) and writes the results as JSON (--out, default eval-results.json).
  --scorer SPEC        answer-equals, answer-contains:TEXT, answer-matches:REGEX, same-calls,
                       fewer-steps, cost, or FILE (.ts/.js/.mjs) whose default export is a scorer
                       or a list of them (defineScorer from @agentstep/cli/testing: a name and
                       score({ case, run }) from 0 to 1, a model as judge included); repeatable
                       (default: answer-equals and same-calls)
  --baseline FILE      an earlier run's results: each case's score that fell by more than
                       --tolerance (default 0) is printed as a regression, and the exit code is 1
Exit code 0: done, no regression; 1: a regression, or a session with no events; 2: called wrong.`;

/** Help for `agentstep mcp`. */
const MCP_USAGE = `agentstep mcp tools [--json] [agent options]
agentstep mcp call SERVER__TOOL [--args JSON] [--json] [agent options]

Connects to the agent's MCP servers as a local turn does (the agent file's mcpServers and --mcp
NAME=URL; a secret its headers or oauth name is the environment variable of that name; oauth gets
a token with the client credentials) and checks what the model would get.
tools lists each tool as the model sees it, one line each: SERVER__TOOL and its description (--json:
one JSON object a line, {"name", "description", "parameters", "approval", "timeoutMs"}); what keeps
a tool out (a server not reached, a tool skipped) goes to stderr.
call calls one tool as a turn's call does: the tool as its server lists it, --args (a JSON object,
default {}) checked against its schema, within the server's timeoutMs; it prints the result as the
model reads it (its text, or its structured content as JSON), or --json the whole MCP result. A
person calls it: approval rules do not apply.
Exit code 0: listed, or the tool's result; 1: a server could not be reached, the tool is not
listed, its arguments are refused, the call failed or its result is an error (said on stderr);
2: the command was called wrong.`;

/** Help for `agentstep parse`. */
const PARSE_USAGE = `agentstep parse [--mode event|token] [--chunk-size N] [--chunks-json]

Reads one model step's output from stdin and prints its events, one JSON line each.
  --mode event|token   whole units (default) or prose and thinking as they arrive
  --chunk-size N       feed the parser N characters at a time
  --chunks-json        stdin is a JSON array of strings, fed to the parser in order`;

/** Help for `agentstep prompt`. */
const PROMPT_USAGE = `agentstep prompt [agent options] [--tools <file.json>] [--instructions TEXT]

Prints the system prompt a session sends: the agent file's instructions and tools (its toolsets,
own tools and Lambda tools, then its MCP servers' tools, listed from the servers), as agentstep run
offers them; the agent options (above) as run takes them.
  --tools <file.json>   these tools instead of the agent's own (a name ending in .json; without an
                        agent file, --tools or --mcp is required): a JSON array of
                        {"name": "...", "description": "...", "parameters": {JSON Schema of the arguments}}
  --instructions TEXT   these instructions instead of the agent file's`;

/** Help for `agentstep workflow`. */
const WORKFLOW_USAGE = `agentstep workflow run FILE [--input NAME=VALUE ...] [run options]
agentstep workflow resume RUN [run options]
agentstep workflow context RUN GOAL
agentstep workflow gate RUN GATE (--approve | --correct TEXT | --abort)

run starts a run of the workflow in FILE (an Agentfile, or its spec as .json) on the local engine,
each goal a turn of the agent in its own session, one line per record on stderr, and prints
{"run", "status", "message"} on stdout. With the scripted model, --script FILE is a JSON object
from goal id (goal[agent] for a USING agent, goal:commit|assess|supervise for supervision,
goal:synthesize for a synthesis) to the list of its runs' scripts. An agent that REQUIRES "NAME"
needs --model-profile NAME=MODEL (run and resume refuse the workflow without it). resume runs a
stopped run on from its log: finished goals are not run again. context prints the exact document GOAL (or goal[agent]) saw. gate answers a human gate
from any shell. Exit code 0: done; 1: failed or aborted; 2: the command was called wrong.`;

/** Help for `agentstep render-context`. */
const RENDER_CONTEXT_USAGE = `agentstep render-context < examples/goal-context.json

Reads one JSON description from stdin and prints the XML document a workflow goal or agent gets as
its user message (decisions E1–E9), exactly, with no newline after it:
  {"render": "goal"|"task", "workflow": {"name", "agentfile"?}, "inputs"?: {NAME: TEXT},
   "prior"?: [{"id", "output", "agent"?, "loop"?, "iteration"?, "fields"?: {NAME: TEXT}}],
   "converge"?: {"history": [{"n", "output"}]},
   "current"?: {"id", "description", "outputs"?: [NAME], "loop"?, "iteration"?},
   "task"?: {"role", "parent_goal", "task", "outputs"?, "include_prior", "interpolate"},
   "correction"?: {"source": "supervisor"|"human", "text"}}
"goal" needs "current", "task" needs "task". Exit code 2 names the field a bad description gets wrong.`;

/** Help for `agentstep` as a whole. */
export const USAGE = `agentstep <command> [options]

Commands:
  run       run one turn of the agent locally (state machine + DynamoDB Local)
  serve     serve the HTTP API and the web console locally: sessions, turns, live streams
  invoke    start one execution with an AWS service's input; print its output
  events    print a session's event log
  fork      start a new session from a session's log up to a turn's end or a batch's results
  context   print the messages the model would see next
  stats     print what a session's local runs cost
  version   print the agent's version (what each turn records it ran on)
  tenants   suspend or resume a tenant (the kill switch), set its spend ceiling, show its spend
  smoke     check a deployment end to end: turn, stream, parallel batch, approval, cancel, trigger
  traces    send a session's turns as OpenTelemetry GenAI spans (or print them)
  eval      export sessions' turns as test cases; replay them with a candidate agent, scored
  mcp       list the agent's MCP tools as the model sees them, or call one
  approvals list a session's calls waiting for a person's approval
  approve   approve (or --deny) one waiting call
  parse     parse model output from stdin into protocol events (JSON lines)
  prompt    print the system prompt of the agent file, or of a set of tools
  workflow  run a multi-goal workflow (an Agentfile), resume it, answer its human gates
  render-context  print a workflow goal's or agent's XML context from a JSON description

${AGENT_OPTIONS_USAGE}

${RUN_USAGE}

${APPROVALS_USAGE}

${SERVE_USAGE}

${INVOKE_USAGE}

${SMOKE_USAGE}

${TRACES_USAGE}

${EVAL_USAGE}

${MCP_USAGE}

${PARSE_USAGE}

${PROMPT_USAGE}

${WORKFLOW_USAGE}

${RENDER_CONTEXT_USAGE}`;
