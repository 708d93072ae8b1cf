import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  type LoggedEvent,
  loggedEvent,
  SCRIPTED_MODEL,
  type StoredEvent,
  type TurnEndStatus,
} from '@agentstep/protocol';
import {
  type Agent,
  checkedAgent,
  createToolset,
  describeTurn,
  inMemoryStores,
  randomIds,
  systemClock,
} from '@agentstep/runtime';
import type { LoadedAgentFile } from '../agent-file/load-agent-file.js';
import { runCommand } from '../commands/run-command.js';
import { memoryIo } from '../io/memory-io.js';
import { decidingApprovalTokens, type RunAgentApproval } from './deciding-approval-tokens.js';
import { type AgentRunResult, resultsOf } from './results-of.js';

export type { RunAgentApproval } from './deciding-approval-tokens.js';
export type { AgentRunResult } from './results-of.js';

/** What {@link runAgent} runs. */
export interface RunAgentOptions {
  /** The user's message. */
  prompt: string;
  /**
   * The scripted model's steps, as a `--script` file holds them: each the model's output text
   * (or `{ chunks, usage }`). @default the agent's own `script` (with `agentFile`), else the demo script
   */
  script?: readonly unknown[];
  /** The agent's file, which its `script` is relative to. @default none */
  agentFile?: string;
  /**
   * Decisions on calls that wait for approval, by tool name: `'approve'`, `'deny'`, or a function of
   * the call's arguments that returns `{ decision: 'approve', args? }` (the tool runs with `args`
   * instead) or `{ decision: 'deny', reason? }` (the model reads `denied: REASON`). A call of a
   * listed tool is decided as soon as it waits; a waiting call of a tool not listed expires after a
   * second, the failed result `approval timed out`. Listing a tool does not make its calls wait: the
   * agent's `approvals` or the tool's `approval: true` do. @default none
   */
  approvals?: Readonly<Record<string, RunAgentApproval>>;
}

/** One turn of an agent, as {@link runAgent} ran it: plain JSON. */
export interface AgentRun {
  /** How the turn ended, as `agentstep run --json` and the API say: `done`, `limit`, `failed` or `cancelled`. */
  status: TurnEndStatus;
  /** The turn's final answer: the prose of its last model step that wrote any, else `''`. */
  answer: string;
  /** What the turn ended with, for people (which limit, which error). */
  message: string;
  /** Every tool call of the turn, in the order they were made, with its outcome. */
  results: AgentRunResult[];
  /** The session's logged events, as `agentstep run --json` prints them (with their `seq`). */
  events: LoggedEvent[];
}

/**
 * Runs one turn of `agent` as `agentstep run --store memory --model scripted` does, for your own
 * tests (vitest or any runner): the synthesized state machine on the embedded engine, the event
 * log in memory, the model playing `script`, your tools running for real. A call that waits for
 * approval is decided by `approvals`, else expires after a second, a failed result. Rejects when a
 * decision of `approvals` could not be made (its function threw, or the tool refused edited args).
 * Needs no Java, AWS account or network; the synthesized loop is cached in the system's temporary
 * folder, per OS user.
 */
export async function runAgent(agent: Agent, options: RunAgentOptions): Promise<AgentRun> {
  const checked = checkedAgent(agent);
  const approvals = checkedApprovals(options.approvals ?? {});
  const undecided: Error[] = [];
  const { approvalTokens, ...stores } = inMemoryStores();
  const deciding = decidingApprovalTokens(approvalTokens, {
    log: stores.log,
    clock: systemClock,
    toolset: createToolset(checked.tools),
    approvals,
    failed: (error) => undecided.push(error),
  });
  const session = randomIds.session();
  const dataDir = await mkdtemp(join(tmpdir(), 'agentstep-run-agent-'));
  const scriptFile = join(dataDir, 'script.json');
  const io = memoryIo({
    files: options.script === undefined ? {} : { [scriptFile]: JSON.stringify(options.script) },
    dataDir,
    cacheDir: userCacheDir(),
    openStore: async () => ({ kind: 'memory', ...stores, approvalTokens: deciding, close: async () => {} }),
  });
  const args = [
    ...[options.prompt, '--session', session, '--model', SCRIPTED_MODEL, '--store', 'memory', '--json'],
    // A call that waits for approval and that `approvals` does not decide expires, failing as the model reads it.
    ...['--approval-timeout', '1'],
    ...(options.script === undefined ? [] : ['--script', scriptFile]),
  ];
  try {
    await runCommand(args, io, loadedAgent(checked, options.agentFile));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const [failure] = undecided;
  if (failure !== undefined) throw failure;
  return turnOf(session, await stores.log.read(session), stores);
}

/** `approvals` as given, once each value is one of the three kinds (JavaScript callers too). */
function checkedApprovals(
  approvals: Readonly<Record<string, RunAgentApproval>>,
): Readonly<Record<string, RunAgentApproval>> {
  for (const [tool, approval] of Object.entries(approvals)) {
    if (approval === 'approve' || approval === 'deny' || typeof approval === 'function') continue;
    throw new TypeError(
      `runAgent: approvals.${tool} must be 'approve', 'deny' or a function of the call's arguments; received ${JSON.stringify(approval)}.`,
    );
  }
  return approvals;
}

/**
 * The synthesized loop's cache: the system's temporary folder, one per OS user (each writes only
 * their own), as an installed package's own folder may not be writable.
 */
function userCacheDir(): string {
  const user = process.getuid?.() ?? userInfo().username;
  return join(tmpdir(), `agentstep-${user}`, 'cache');
}

/** The agent as if loaded from `agentFile` (its script beside it), or named after itself. */
function loadedAgent(agent: Agent, agentFile: string | undefined): LoadedAgentFile {
  if (agentFile === undefined) return { agent, file: agent.name };
  const script = agent.script === undefined ? {} : { script: resolve(dirname(agentFile), agent.script) };
  return { agent, file: agentFile, ...script };
}

async function turnOf(
  session: string,
  events: readonly StoredEvent[],
  stores: Parameters<typeof describeTurn>[1],
): Promise<AgentRun> {
  const end = events.findLast((stored) => stored.event.type === 'turn_end')?.event;
  const turn = end?.type === 'turn_end' ? end.payload.turn : '';
  const described = await describeTurn({ session, turn }, stores);
  if ('pending' in described) throw new Error(`The turn of session ${session} did not end: ${turn}.`);
  return {
    status: described.status,
    answer: described.answer,
    message: described.message,
    results: resultsOf(events),
    events: events.map(loggedEvent),
  };
}
