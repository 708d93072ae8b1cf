import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error.js';
import type { StoreKind } from './open-store.js';

/** `agentstep run`'s options, checked. */
export interface RunOptions {
  prompt: string;
  session?: string;
  /** `scripted`, `replay`, `bedrock:<modelId>`, `openai:<model>` or `anthropic:<model>`. */
  model: string;
  /** Whether `--model` was given, rather than defaulted. */
  modelChosen: boolean;
  baseUrl?: string;
  script?: string;
  cassette?: string;
  /** Write each model step's output to this cassette. */
  record?: string;
  tools: string[];
  allowHosts: string[];
  sequential: boolean;
  maxSteps?: number;
  stepsPerExecution?: number;
  chaos?: { probability: number; seed: number };
  store: StoreKind;
  json: boolean;
}

const DEFAULT_PROMPT = 'Check three things for me at once, then summarize.';

/** Parses and checks `agentstep run`'s arguments; every mistake is a UsageError that says what to fix. */
export function parseRunOptions(args: string[]): RunOptions {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      session: { type: 'string' },
      model: { type: 'string' },
      script: { type: 'string' },
      cassette: { type: 'string' },
      record: { type: 'string' },
      'base-url': { type: 'string' },
      tools: { type: 'string', default: 'demo' },
      'allow-hosts': { type: 'string', default: '' },
      'max-steps': { type: 'string' },
      'steps-per-execution': { type: 'string' },
      chaos: { type: 'string' },
      seed: { type: 'string' },
      store: { type: 'string', default: 'dynamodb-local' },
      json: { type: 'boolean', default: false },
      sequential: { type: 'boolean', default: false },
    },
  });
  const model = values.model ?? 'scripted';
  if (!['scripted', 'replay'].includes(model) && !/^(bedrock|openai|anthropic):.+/.test(model)) {
    throw new UsageError(
      `--model must be "scripted", "replay", "bedrock:<modelId>", "openai:<model>" or "anthropic:<model>", received "${model}".`,
    );
  }
  if (model === 'replay' && values.cassette === undefined)
    throw new UsageError('--model replay needs --cassette FILE.');
  if (values.store !== 'dynamodb-local' && values.store !== 'memory') {
    throw new UsageError(`--store must be "dynamodb-local" or "memory", received "${values.store}".`);
  }
  return {
    prompt: positionals.join(' ') || DEFAULT_PROMPT,
    model,
    modelChosen: values.model !== undefined,
    tools: values.tools.split(',').filter((name) => name !== ''),
    allowHosts: values['allow-hosts'].split(',').filter((host) => host !== ''),
    store: values.store,
    json: values.json,
    sequential: values.sequential,
    ...optional('session', values.session),
    ...optional('script', values.script),
    ...optional('cassette', values.cassette),
    ...optional('record', values.record),
    ...optional('baseUrl', values['base-url']),
    ...optional('maxSteps', wholeNumber('--max-steps', values['max-steps'], 1, 10_000)),
    ...optional(
      'stepsPerExecution',
      wholeNumber('--steps-per-execution', values['steps-per-execution'], 1, 1_000),
    ),
    ...optional('chaos', chaosOf(values.chaos, values.seed)),
  };
}

function chaosOf(probability: string | undefined, seed: string | undefined): RunOptions['chaos'] {
  if (probability === undefined) return undefined;
  const value = Number(probability);
  if (!(value >= 0 && value <= 1))
    throw new UsageError(`--chaos must be a probability from 0 to 1, received "${probability}".`);
  return { probability: value, seed: wholeNumber('--seed', seed ?? '1', 0, 2 ** 32 - 1) ?? 1 };
}

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
