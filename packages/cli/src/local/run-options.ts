import type { DefinitionProps } from '@agentstep/local';
import {
  type Budget,
  budgetSchema,
  COMPACTION_STRATEGIES,
  type ContextSettings,
  contextSettingsSchema,
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  type IfBusy,
  ifBusySchema,
  isSessionId,
  type ModelProfiles,
  type ParseMode,
  SCRIPTED_MODEL,
  SESSION_ID_RULE,
  turnLimitsSchema,
} from '@agentstep/protocol';
import type { Ceiling, LeaseOptions } from '@agentstep/runtime';
import type { A2aAgentSpec } from '@agentstep/runtime/a2a';
import type { McpServerSpec } from '@agentstep/runtime/mcp';
import type * as z from 'zod';
import { AGENT_OPTIONS, agentFlagsOf } from '../agent-file/agent-flags.js';
import type { LoadedAgentFile } from '../agent-file/load-agent-file.js';
import { type OtherOptions, parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';
import type { StoreKind } from './open-store.js';
import { tenantCeilingOf } from './tenant-ceiling-option.js';

/** `agentstep run`'s options, checked; the agent file's settings under the flags once merged (`withAgentFile`). */
export interface RunOptions {
  /** `--agent FILE`: the user's agent file. @default `agent.ts` in the working directory, if there is one */
  agentFile?: string;
  /** The agent file's agent, once loaded and merged: what the flags do not set comes from it. */
  loadedAgent?: LoadedAgentFile;
  /** Which list flags were given, so the agent file's lists apply only where they were not. */
  given: { tools: boolean; fetchHosts: boolean; approvals: boolean };
  prompt: string;
  /** Whether a prompt was given, rather than defaulted. */
  promptGiven: boolean;
  session?: string;
  /**
   * `scripted`, `replay`, or `<provider>:<model>` of a registered provider (`bedrock`, `openai`,
   * `anthropic`, or one `--provider` adds), as `checkModels` checks once the providers are loaded.
   */
  model: string;
  /**
   * Whether the flags chose the model, so an agent file's does not apply: `--model`, or `--script`
   * (the scripted model) or `--cassette` (replay) without it.
   */
  modelChosen: boolean;
  /** Named model profiles (`--model-profile NAME=MODEL`), as a workflow agent's `REQUIRES` picks one. */
  modelProfiles: ModelProfiles;
  /** Modules whose default export is a model provider (`--provider FILE`, repeatable). */
  providers: string[];
  baseUrl?: string;
  script?: string;
  cassette?: string;
  /** Write each model step's output to this cassette. */
  record?: string;
  tools: string[];
  /** Hosts `http_fetch` may fetch (`--fetch-hosts`, or its old name `--allow-hosts`). */
  allowHosts: string[];
  sequential: boolean;
  maxSteps?: number;
  stepsPerExecution?: number;
  chaos?: { probability: number; seed: number };
  store: StoreKind;
  json: boolean;
  /** `token`: thinking and prose as they stream; `event`: whole events once logged. */
  mode: ParseMode;
  budget: Budget;
  /**
   * How model steps keep the context within the window (decision 0035): `--context-window` and
   * `--compaction` over the agent file's `context` (its other settings still apply).
   */
  context: ContextSettings;
  /** A JSON price table merged over the built-in one. */
  prices?: string;
  /** The turn's lease on its session (`--lease`), and whether to take a live one over (`--take-over`). */
  lease: LeaseOptions;
  /** Tools whose calls wait for a person's approval (`--approve`); `*` for every tool. */
  approvals: string[];
  /** What the turn does while another turn of its session runs (`--if-busy`). @default 'reject' */
  ifBusy: IfBusy;
  /** Whole seconds a call waits for a decision (`--approval-timeout`). @default 24 hours */
  approvalTimeoutSeconds?: number;
  /** MCP servers by name (`--mcp NAME=URL`, repeatable), over the agent file's of the same name. */
  mcpServers: Record<string, McpServerSpec>;
  /** Remote A2A agents (`--a2a NAME=URL`, repeatable), over the agent file's of the same name. */
  a2aAgents: A2aAgentSpec[];
  /** What every tenant may spend on models (`--tenant-ceiling`, `--tenant-token-ceiling`). @default none */
  tenantCeiling?: Ceiling;
  /**
   * `run --tenant NAME`: the session is the tenant's, as the API keeps it (its stored id), so the
   * tenant's suspension and ceilings apply. @default none: a session of no tenant
   */
  tenant?: string;
}

/** The longest wait for a decision Step Functions allows a task (`TimeoutSeconds`). */
const MAX_APPROVAL_TIMEOUT_SECONDS = 99_999_999;

/** The model that plays back a cassette (CLI only). */
export const REPLAY_MODEL = 'replay';

/** The toolsets of a run without `--tools` nor an agent file. */
export const DEFAULT_TOOLSETS: readonly string[] = ['demo'];

const DEFAULT_PROMPT = 'Check three things for me at once, then summarize.';

/**
 * Parses and checks `agentstep run`'s arguments (the agent options among them); every mistake is a
 * UsageError that says what to fix. `other` is what a command that takes these options as well as
 * its own knows of its own (`serve --port`).
 */
export function parseRunOptions(args: string[], other: OtherOptions = {}): RunOptions {
  const { values, positionals } = parseOptions(
    {
      args,
      allowPositionals: true,
      options: {
        ...AGENT_OPTIONS,
        session: { type: 'string' },
        model: { type: 'string' },
        'model-profile': { type: 'string', multiple: true, default: [] },
        provider: { type: 'string', multiple: true, default: [] },
        script: { type: 'string' },
        cassette: { type: 'string' },
        record: { type: 'string' },
        'base-url': { type: 'string' },
        'max-steps': { type: 'string' },
        'steps-per-execution': { type: 'string' },
        chaos: { type: 'string' },
        seed: { type: 'string' },
        store: { type: 'string', default: 'dynamodb-local' },
        json: { type: 'boolean', default: false },
        mode: { type: 'string' },
        'max-tokens': { type: 'string' },
        'max-cost': { type: 'string' },
        'max-wall': { type: 'string' },
        'context-window': { type: 'string' },
        compaction: { type: 'string' },
        prices: { type: 'string' },
        sequential: { type: 'boolean', default: false },
        lease: { type: 'string' },
        'take-over': { type: 'boolean', default: false },
        'if-busy': { type: 'string', default: 'reject' },
        approve: { type: 'string' },
        'approval-timeout': { type: 'string' },
        tenant: { type: 'string' },
        'tenant-ceiling': { type: 'string' },
        'tenant-token-ceiling': { type: 'string' },
      },
    },
    other,
  );
  const agent = agentFlagsOf(values);
  // A script or cassette given alone names the model that plays it.
  const model = values.model ?? (values.cassette === undefined ? SCRIPTED_MODEL : REPLAY_MODEL);
  if (model === REPLAY_MODEL && values.cassette === undefined)
    throw new UsageError('--model replay needs --cassette FILE.');
  if (values.store !== 'dynamodb-local' && values.store !== 'memory') {
    throw new UsageError(`--store must be "dynamodb-local" or "memory", received "${values.store}".`);
  }
  const ifBusy = ifBusySchema.safeParse(values['if-busy']);
  if (!ifBusy.success)
    throw new UsageError(
      `--if-busy must be "reject", "enqueue" or "interrupt", received "${values['if-busy']}".`,
    );
  const mode = values.mode ?? (values.json ? 'event' : 'token');
  if (mode !== 'event' && mode !== 'token')
    throw new UsageError(`--mode must be "event" or "token", received "${mode}".`);
  return {
    prompt: positionals.join(' ') || DEFAULT_PROMPT,
    promptGiven: positionals.join(' ') !== '',
    mode,
    budget: budgetOf(values),
    context: contextOf(values['context-window'], values.compaction),
    model,
    modelChosen: [values.model, values.script, values.cassette].some((flag) => flag !== undefined),
    modelProfiles: modelProfilesOf(values['model-profile']),
    providers: values.provider,
    tools: agent.toolsets ?? [...DEFAULT_TOOLSETS],
    allowHosts: agent.fetchHosts ?? [],
    store: values.store,
    json: values.json,
    sequential: values.sequential,
    lease: leaseOf(values.lease, values['take-over']),
    ifBusy: ifBusy.data,
    approvals: (values.approve ?? '').split(',').filter((name) => name !== ''),
    mcpServers: agent.mcpServers,
    a2aAgents: agent.a2aAgents,
    given: {
      tools: agent.toolsets !== undefined,
      fetchHosts: agent.fetchHosts !== undefined,
      approvals: values.approve !== undefined,
    },
    ...optional('agentFile', agent.agentFile),
    ...optional(
      'approvalTimeoutSeconds',
      wholeNumber('--approval-timeout', values['approval-timeout'], 1, MAX_APPROVAL_TIMEOUT_SECONDS),
    ),
    ...optional('session', values.session === undefined ? undefined : checkedSession(values.session)),
    ...optional('script', values.script),
    ...optional('cassette', values.cassette),
    ...optional('record', values.record),
    ...optional('baseUrl', values['base-url']),
    ...optional('prices', values.prices),
    ...optional(
      'maxSteps',
      checkedNumber('--max-steps', values['max-steps'], turnLimitsSchema.shape.maxSteps),
    ),
    ...optional(
      'stepsPerExecution',
      checkedNumber(
        '--steps-per-execution',
        values['steps-per-execution'],
        turnLimitsSchema.shape.stepsPerExecution,
      ),
    ),
    ...optional('chaos', chaosOf(values.chaos, values.seed)),
    ...optional('tenant', values.tenant),
    ...tenantCeilingOf(values['tenant-ceiling'], values['tenant-token-ceiling']),
  };
}

/**
 * The named model profiles of `--model-profile NAME=MODEL` (repeatable; a later NAME wins); whether
 * MODEL names one is for `checkModels`, once the providers are loaded.
 */
function modelProfilesOf(pairs: readonly string[]): ModelProfiles {
  const profiles: ModelProfiles = {};
  for (const pair of pairs) {
    const [name = '', model] = pair.split(/=(.*)/s, 2);
    if (name === '' || model === undefined)
      throw new UsageError(
        `--model-profile takes NAME=MODEL, e.g. --model-profile fast=anthropic:claude-haiku-4-5; received "${pair}".`,
      );
    profiles[name] = model;
  }
  return profiles;
}

/** The session's budget from `--max-tokens`, `--max-cost` and `--max-wall`. */
function budgetOf(values: Record<string, string | string[] | boolean | undefined>): Budget {
  const limit = (key: keyof Budget, flag: string) =>
    optional(
      key,
      checkedNumber(`--${flag}`, values[flag] as string | undefined, budgetSchema.shape[key].unwrap()),
    );
  return {
    ...limit('maxTokens', 'max-tokens'),
    ...limit('maxCostUsd', 'max-cost'),
    ...limit('maxWallSeconds', 'max-wall'),
  };
}

/** The context settings of `--context-window TOKENS` and `--compaction summarize|drop`, as far as given. */
function contextOf(windowTokens: string | undefined, compaction: string | undefined): ContextSettings {
  const { shape } = contextSettingsSchema;
  const strategy = shape.strategy.unwrap().safeParse(compaction);
  if (compaction !== undefined && !strategy.success)
    throw new UsageError(
      `--compaction must be ${COMPACTION_STRATEGIES.map((name) => `"${name}"`).join(' or ')}, received "${compaction}".`,
    );
  return {
    ...optional('windowTokens', checkedNumber('--context-window', windowTokens, shape.windowTokens.unwrap())),
    ...optional('strategy', strategy.data),
  };
}

/** The turn's lease: `--lease SECONDS` without a write before another turn may take the session. */
function leaseOf(seconds: string | undefined, takeOver: boolean): LeaseOptions {
  const leaseSeconds = wholeNumber('--lease', seconds, 1, 86_400);
  return { ...optional('leaseMs', leaseSeconds === undefined ? undefined : leaseSeconds * 1000), takeOver };
}

/** `--session`, if it is a session id. */
function checkedSession(session: string): string {
  if (!isSessionId(session))
    throw new UsageError(`--session must be ${SESSION_ID_RULE}; received "${session}".`);
  return session;
}

function chaosOf(probability: string | undefined, seed: string | undefined): RunOptions['chaos'] {
  if (probability === undefined) {
    if (seed !== undefined)
      throw new UsageError('--seed only applies with --chaos P; add --chaos or drop --seed.');
    return undefined;
  }
  const value = Number(probability);
  if (!(value >= 0 && value <= 1))
    throw new UsageError(`--chaos must be a probability from 0 to 1, received "${probability}".`);
  return { probability: value, seed: wholeNumber('--seed', seed ?? '1', 0, 2 ** 32 - 1) ?? 1 };
}

/**
 * A flag's number, written in decimal and checked by the schema that owns its rule, so the CLI
 * never keeps a copy of a limit.
 */
function checkedNumber(flag: string, text: string | undefined, schema: z.ZodNumber): number | undefined {
  if (text === undefined) return undefined;
  const parsed = DECIMAL.test(text) ? schema.safeParse(Number(text)) : undefined;
  if (parsed?.success) return parsed.data;
  const kind = schema.isInt ? 'a whole number' : 'a number';
  const issue = parsed?.error.issues[0];
  const bound =
    issue?.code === 'too_small'
      ? ` ${issue.inclusive ? 'of at least' : 'greater than'} ${issue.minimum}`
      : issue?.code === 'too_big'
        ? ` of at most ${issue.maximum}`
        : '';
  throw new UsageError(`${flag} must be ${kind}${bound}, received "${text}".`);
}

/** A plain decimal number: no sign, hex, exponent or `Infinity`. */
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

function wholeNumber(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, received "${text}".`);
  }
  return value;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** The construct props of the options that shape the synthesized definition itself. */
export function definitionPropsOf(options: RunOptions): DefinitionProps {
  return optional('approvalTimeoutSeconds', options.approvalTimeoutSeconds);
}

/** Which calls wait for approval, and for how long, as the options say. */
export function approvalsOf(options: RunOptions): { tools: string[]; timeoutMs: number } {
  const seconds = options.approvalTimeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS;
  return { tools: options.approvals, timeoutMs: seconds * 1000 };
}
