import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentstepExample, agentstepExamples } from '../support/agentstep-examples.js';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { type BackgroundCli, type CliResult, runCli, startCli } from '../support/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = agentstepExamples(readFileSync(join(ROOT, 'README.md'), 'utf8'));

/** The README's commands this file does not run, each with why: every other one runs as written. */
const NOT_RUN = new Map([
  [
    'npx agentstep run "What is 2 + 3?" --mcp everything=http://127.0.0.1:3001/mcp',
    'a running MCP server at that URL (test/api/mcp-tools.test.ts runs server-everything)',
  ],
  [
    'npx agentstep mcp tools --mcp everything=http://127.0.0.1:3001/mcp',
    'a running MCP server at that URL (test/cli/mcp-client-conformance.test.ts runs the command against the suite’s servers)',
  ],
  [
    `npx agentstep mcp call everything__get-sum --args '{"a": 2, "b": 3}' --mcp everything=http://127.0.0.1:3001/mcp`,
    'a running MCP server at that URL (test/cli/mcp-client-conformance.test.ts runs the command against the suite’s servers)',
  ],
  [
    'npx agentstep run "Remember Ada" --mcp "memory=stdio:npx -y @modelcontextprotocol/server-memory"',
    'npx fetches the server from the registry (test/cli/mcp-stdio.test.ts runs the installed one)',
  ],
  [
    'OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npx agentstep run "Count the words in: one two"',
    'a collector listening at that address (test/cli/traces.test.ts runs one)',
  ],
  [
    'npx agentstep traces SESSION --otlp http://127.0.0.1:4318',
    'a collector listening at that address (test/cli/traces.test.ts runs one)',
  ],
  [
    'npx agentstep eval export SESSION > cases.jsonl',
    'a shell redirect (test/cli/eval.test.ts runs eval export, its output kept as cases.jsonl)',
  ],
  [
    'npx agentstep eval run cases.jsonl --agent examples/demo/agent.ts',
    "cases.jsonl is the reader's export (test/cli/eval.test.ts runs eval export and run)",
  ],
  [
    'npx agentstep eval run cases.jsonl --agent examples/demo/agent.ts --scorer answer-contains:refund --baseline BASELINE --tolerance 0.05',
    "the reader's files, as above",
  ],
  [
    'npx agentstep smoke --stack AgentStepSmoke',
    'a deployed smoke stack (test/deploy/lambda-node22.test.ts runs it against the stand-in; test/cli/smoke.test.ts against serve)',
  ],
  [
    'npx agentstep run --model openai:gpt-4o-mini --max-cost 0.05',
    'a real model: OPENAI_API_KEY and the network',
  ],
  [
    'npx agentstep approve SESSION ID --deny --reason TEXT',
    "TEXT is the reader's; the plain form decides the demo's waiting calls",
  ],
  [
    'npx agentstep approve SESSION ID --args JSON',
    "JSON is the reader's; the plain form decides the demo's calls",
  ],
  [
    'npx agentstep approve SESSION ID --url URL --token NAME',
    'a running server of the session (URL) and its tenant (NAME)',
  ],
  [
    'AWS_REGION=us-east-1 npx agentstep run "Hi" --model bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0',
    'a real model: AWS credentials and the network',
  ],
  [
    'OPENAI_API_KEY=sk-… npx agentstep run "Summarize notes.md" --model openai:gpt-4o-mini --tools workspace',
    'a real model: an OpenAI key and the network',
  ],
  [
    'npx agentstep run "Hi" --model openai:llama3.1 --base-url http://localhost:11434/v1',
    'a real model: an Ollama server on localhost:11434',
  ],
  [
    'ANTHROPIC_API_KEY=sk-ant-… npx agentstep run "Hi" --model anthropic:claude-sonnet-4-5',
    'a real model: an Anthropic key and the network',
  ],
]);

/** What a command leaves for the README's commands after it. */
interface Outcome {
  /** The session a `run` named. */
  session?: string | undefined;
  /** A `run --approve` left in the background, waiting for its calls to be decided. */
  waiting?: Waiting;
}

/** A run waiting for approvals, and how many of its calls were decided. */
interface Waiting {
  running: BackgroundCli;
  decided: number;
}

/** One README command this file runs, and what it leaves once it has run. */
interface Planned {
  example: AgentstepExample;
  outcome: Promise<Outcome>;
  settle(outcome: Outcome): void;
  fail(error: unknown): void;
}

/** A call the background run waits on, as its live view prints it. */
const WAITS = /waits for approval \(id (\S+)\)/g;

// The commands run at once, each in the README's folder; one that needs an earlier one's output
// (SESSION, ID) waits for that one, so the README's order is what makes its chains.
describe.skipIf(dynamoEndpoint === '').concurrent("the README's agentstep commands, run as written", () => {
  const cwd = exampleFolder();
  const started: BackgroundCli[] = [];
  const planned: Planned[] = [];
  afterAll(() => {
    for (const running of started) running.child.kill('SIGKILL');
  });

  it('are found, and those it does not run are among them', () => {
    const texts = EXAMPLES.map(({ text }) => text);
    expect(texts).toEqual(expect.arrayContaining(['npx agentstep run', 'npx agentstep --help']));
    expect([...NOT_RUN.keys()].filter((text) => !texts.includes(text))).toEqual([]);
  });

  for (const example of EXAMPLES) {
    const title = `README.md:${example.line}: ${example.text}`;
    // Not run, each for the reason NOT_RUN gives: the first test keeps that list true to the README.
    if (NOT_RUN.has(example.text)) continue;
    const earlier = planned.toReversed();
    const plan = { example, ...deferred<Outcome>() };
    planned.push(plan);
    it(title, async () => {
      try {
        plan.settle(await runExample(example, { cwd, earlier, started }));
      } catch (error) {
        plan.fail(error);
        throw error;
      }
    });
  }
});

/** An outcome to come, settled by its command's test. */
function deferred<T>(): { outcome: Promise<T>; settle(value: T): void; fail(error: unknown): void } {
  let settle: (value: T) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const outcome = new Promise<T>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // A command's failure fails its own test; the commands waiting on it say which one they needed.
  outcome.catch(() => {});
  return { outcome, settle, fail };
}

/** A fresh folder with the repository's `examples/`, the folder every file the commands name is in. */
function exampleFolder(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'agentstep-readme-'));
  symlinkSync(join(ROOT, 'examples'), join(cwd, 'examples'), 'dir');
  return cwd;
}

/** Where a command runs: the folder, the commands before it (newest first), what runs in the background. */
interface Context {
  cwd: string;
  earlier: Planned[];
  started: BackgroundCli[];
}

/** Runs one README command and checks it ends as the README says: exit 0. */
async function runExample(example: AgentstepExample, context: Context): Promise<Outcome> {
  const args = await filled(example.args, context.earlier);
  const input = example.stdin === undefined ? undefined : readFileSync(join(context.cwd, example.stdin));
  const options = { cwd: context.cwd, env: example.env, ...(input === undefined ? {} : { input }) };
  if (example.background) return serveUntilReady(startCli(args, options), example.comment, context);
  if (args[0] === 'run' && args.includes('--approve')) return startWaiting(startCli(args, options), context);
  const result = await runCli(args, options);
  expect(result.status, output(result)).toBe(0);
  if (args[0] === 'approve') await decideTheRest(example, options, context.earlier);
  return args[0] === 'run' ? { session: sessionOf(result.stdout + result.stderr) } : {};
}

/** The arguments, each placeholder filled from an earlier command's outcome. */
async function filled(args: string[], earlier: Planned[]): Promise<string[]> {
  const values: string[] = [];
  for (const word of args)
    values.push(/^[A-Z][A-Z_]*$/.test(word) ? await placeholderValue(word, earlier) : word);
  return values;
}

/** The commands a placeholder's value comes from: SESSION from a `run`, ID from a `run --approve`. */
const SOURCES: Record<string, (args: string[]) => boolean> = {
  SESSION: (args) => args[0] === 'run',
  ID: (args) => args[0] === 'run' && args.includes('--approve'),
};

/** SESSION: the latest run's session; ID: the next undecided call of the latest waiting run. */
async function placeholderValue(placeholder: string, earlier: Planned[]): Promise<string> {
  const source = SOURCES[placeholder];
  if (source === undefined) throw new Error(`${placeholder} is no placeholder this test fills (SESSION, ID)`);
  for (const { example, outcome } of earlier.filter(({ example }) => source(example.args))) {
    const { session, waiting } = await outcome.catch((error) => {
      throw new Error(`${placeholder} comes from README.md:${example.line}: ${example.text}, which failed`, {
        cause: error,
      });
    });
    const value = placeholder === 'SESSION' ? session : waiting && waitingIds(waiting)[waiting.decided];
    if (value !== undefined) return value;
  }
  throw new Error(`no earlier README command gives a value for ${placeholder}`);
}

/** A `… &` server: stopped with Ctrl-C once it prints what its comment says; exit 0. */
async function serveUntilReady(
  running: BackgroundCli,
  comment: string | undefined,
  context: Context,
): Promise<Outcome> {
  context.started.push(running);
  const ready = comment?.match(/^prints: (.+)$/)?.[1];
  if (ready === undefined)
    throw new Error(`a background command needs a "# prints: …" comment; got ${comment}`);
  await running.waitFor(({ stdout, stderr }) => (`${stdout}${stderr}`.includes(ready) ? true : undefined));
  running.child.kill('SIGINT');
  expect(await running.exited, printed(running)).toBe(0);
  return {};
}

/** A run whose calls wait for approval: left in the background once its first call waits. */
async function startWaiting(running: BackgroundCli, context: Context): Promise<Outcome> {
  context.started.push(running);
  await running.waitFor(({ stdout }) => (stdout.match(WAITS) ? true : undefined));
  return { session: sessionOf(running.stdout()), waiting: { running, decided: 0 } };
}

/** The README's `approve` again for each further call the waiting run asks about, then its exit 0. */
async function decideTheRest(
  example: AgentstepExample,
  options: { cwd: string },
  earlier: Planned[],
): Promise<void> {
  const approving = earlier.find(({ example: { args } }) => SOURCES.ID?.(args));
  const waiting = approving && (await approving.outcome).waiting;
  if (waiting === undefined) return;
  waiting.decided += 1;
  while (await asksAgain(waiting)) {
    const again = await runCli(await filled(example.args, earlier), options);
    expect(again.status, output(again)).toBe(0);
    waiting.decided += 1;
  }
  expect(await waiting.running.exited, printed(waiting.running)).toBe(0);
}

/** Whether the waiting run asks about one more call (true) or ends (false). */
function asksAgain({ running, decided }: Waiting): Promise<boolean> {
  const asks = running.waitFor(({ stdout }) =>
    [...stdout.matchAll(WAITS)].length > decided ? true : undefined,
  );
  return Promise.race([asks, running.exited.then(() => false)]).catch(() => false);
}

/** The ids of the calls the waiting run has asked about, in order. */
function waitingIds({ running }: Waiting): string[] {
  return [...running.stdout().matchAll(WAITS)].map(([, id = '']) => id);
}

/** The session a `run` names in its output, if it names one (`--json` does not). */
function sessionOf(printed: string): string | undefined {
  return printed.match(/(?:session|agentstep approve) (s-[\w.-]+)/)?.[1];
}

/** What a command printed, for a failed expectation's message. */
function output({ stdout, stderr }: CliResult): string {
  return `stdout:\n${stdout}\nstderr:\n${stderr}`;
}

/** What a background command has printed, for a failed expectation's message. */
function printed(running: BackgroundCli): string {
  return output({ status: null, stdout: running.stdout(), stderr: running.stderr() });
}
