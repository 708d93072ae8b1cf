import { type ApprovalDecisionBody, approvalDecisionBodySchema } from '@agentstep/protocol';
import {
  AGENT_OPTIONS,
  type AgentFlags,
  type AgentOptionValues,
  agentFlagsOf,
} from '../agent-file/agent-flags.js';
import { checkedSessionId } from '../local/parse-session-args.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';
import { argsObject } from './args-object.js';

/** The environment variable that points `approvals` and `approve` at a running `agentstep serve`. */
export const AGENTSTEP_URL = 'AGENTSTEP_URL';

/**
 * Where `approvals` and `approve` find the session: a served API (`--url`, else `AGENTSTEP_URL`,
 * with `--token` as its bearer), or the local store, with the agent whose tools check edited
 * arguments, as the agent options name it (`--agent FILE`, else `agent.ts` in the working
 * directory, if there is one; `--tools`, `--fetch-hosts` and `--mcp` over its own).
 */
export type DeskAddress = { kind: 'served'; url: string; token?: string } | ({ kind: 'local' } & AgentFlags);

/** `agentstep approvals SESSION`'s options, checked. */
export interface ApprovalsOptions {
  session: string;
  json: boolean;
  desk: DeskAddress;
}

/** `agentstep approve SESSION ID`'s options, checked: the decision in the API's body shape. */
export interface ApproveOptions extends ApprovalsOptions {
  approval: string;
  body: ApprovalDecisionBody;
}

const SHARED = {
  ...AGENT_OPTIONS,
  json: { type: 'boolean', default: false },
  url: { type: 'string' },
  token: { type: 'string' },
} as const;

/**
 * Parses `agentstep approvals SESSION [--json] [--url URL] [--token NAME] [agent options]`; mistakes
 * are UsageErrors.
 */
export function parseApprovalsOptions(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): ApprovalsOptions {
  const { values, positionals } = parseOptions({ args, allowPositionals: true, options: SHARED });
  const [session, ...extra] = positionals;
  if (session === undefined || extra.length > 0) throw new UsageError('approvals takes one session id.');
  return { session: checkedSessionId(session), json: values.json, desk: deskOf(values, env) };
}

/**
 * Parses `agentstep approve SESSION ID [--deny] [--reason TEXT] [--args JSON] [--json] [--url URL]
 * [--token NAME] [agent options]`; mistakes are UsageErrors.
 */
export function parseApproveOptions(args: string[], env: NodeJS.ProcessEnv = process.env): ApproveOptions {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      ...SHARED,
      deny: { type: 'boolean', default: false },
      reason: { type: 'string' },
      args: { type: 'string' },
    },
  });
  const [session, approval, ...extra] = positionals;
  if (session === undefined || approval === undefined || extra.length > 0)
    throw new UsageError(
      'approve takes a session id and an approval id (`agentstep approvals SESSION` lists them).',
    );
  return {
    session: checkedSessionId(session),
    approval,
    json: values.json,
    desk: deskOf(values, env),
    body: decisionOf(values),
  };
}

/** The decision: approve (with `--args` as edited arguments) or `--deny`, with an optional `--reason`. */
function decisionOf(values: { deny: boolean; reason?: string; args?: string }): ApprovalDecisionBody {
  if (values.deny && values.args !== undefined)
    throw new UsageError('--args edits the call it approves: it does not go with --deny.');
  const edited = values.args === undefined ? undefined : argsObject(values.args);
  if (edited?.ok === false)
    throw new UsageError(
      `--args must be a JSON object of the call's arguments, such as '{"text": "hi"}'; it is ${edited.problem}.`,
    );
  const parsed = approvalDecisionBodySchema.safeParse({
    decision: values.deny ? 'deny' : 'approve',
    ...(values.reason === undefined ? {} : { reason: values.reason }),
    ...(edited?.ok ? { args: edited.args } : {}),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UsageError(`--${String(issue?.path[0] ?? 'args')}: ${issue?.message ?? 'invalid'}.`);
}

function deskOf(
  values: AgentOptionValues & { url?: string; token?: string },
  env: NodeJS.ProcessEnv,
): DeskAddress {
  const given = values.url ?? env[AGENTSTEP_URL];
  if (given === undefined || given === '') {
    if (values.token !== undefined)
      throw new UsageError(`--token goes with --url (or ${AGENTSTEP_URL}): the local store needs none.`);
    return { kind: 'local', ...agentFlagsOf(values) };
  }
  const local = Object.keys(AGENT_OPTIONS).find((name) => {
    const value = values[name as keyof AgentOptionValues];
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  });
  if (local !== undefined)
    throw new UsageError(
      `--${local} is for the local store: a served API checks edited arguments with its own tools.`,
    );
  const url = checkedUrl(values.url === undefined ? AGENTSTEP_URL : '--url', given);
  return { kind: 'served', url, ...(values.token === undefined ? {} : { token: values.token }) };
}

function checkedUrl(source: string, text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return text;
  throw new UsageError(
    `${source} must be the http(s) address \`agentstep serve\` prints, such as http://127.0.0.1:3000; received "${text}".`,
  );
}
