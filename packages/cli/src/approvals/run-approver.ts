import {
  type ApprovalTokenStore,
  type Clock,
  createToolset,
  decideApproval,
  type EventLog,
  type TaskTokens,
  type Tool,
} from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { localUserName } from './local-user-name.js';
import { TerminalApprover } from './terminal-approver.js';

/** What `agentstep run` decides with: its session, stores and tools, and the engine's task tokens. */
export interface RunApproverDeps {
  session: string;
  log: EventLog;
  clock: Clock;
  approvalTokens: ApprovalTokenStore;
  tools: readonly Tool[];
  /** The tokens the run's engine waits on, so a decision wakes its call at once. */
  taskTokens: TaskTokens;
}

/**
 * The terminal approver of `agentstep run`, when a person can answer: a terminal on stdin and
 * stderr, and output for people (not `--json`). It decides as the OS user; undefined otherwise,
 * and the run's calls wait for `agentstep approve` (the view shows how).
 */
export function runApprover(
  options: { json: boolean },
  io: CliIo,
  deps: RunApproverDeps,
): TerminalApprover | undefined {
  if (options.json || !io.interactive || !process.stdin.isTTY) return undefined;
  const { session, tools, ...decideDeps } = deps;
  const toolset = createToolset(tools);
  const by = localUserName();
  return new TerminalApprover(process.stdin, process.stdout, (approval, body) =>
    decideApproval({ session, approval, by, body }, { ...decideDeps, toolset }),
  );
}
