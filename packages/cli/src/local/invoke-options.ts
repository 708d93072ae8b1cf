import { readFileSync } from 'node:fs';
import { UsageError } from '../usage-error.js';
import { parseRunOptions, type RunOptions } from './run-options.js';
import { splitOptions } from './split-options.js';

/** `agentstep invoke`'s options: the execution input, and the agent it runs on. */
export interface InvokeOptions {
  /** The execution input, as any AWS service would send it (checked by the state machine). */
  input: unknown;
  /** Also print the events the execution published (its turn's end). */
  events: boolean;
  agent: RunOptions;
}

/** Parses `agentstep invoke --input JSON|@FILE [run options]`; every mistake is a UsageError. */
export function parseInvokeOptions(args: string[]): InvokeOptions {
  const flags = ['--input', '--events'];
  const { own, run } = splitOptions(args, flags, 'invoke', 'put the message in --input');
  // The agent's options first: a mistyped --input is among them, and its suggestion says so.
  const agent = parseRunOptions(run, { known: flags });
  const text = own['--input'];
  if (text === undefined)
    throw new UsageError('invoke needs --input JSON (or --input @FILE), e.g. --input \'{"message": "Hi"}\'.');
  return { input: parsedInput(text), events: '--events' in own, agent };
}

/** The input's JSON, from the flag or from the file `@FILE` names. */
function parsedInput(text: string): unknown {
  const json = text.startsWith('@') ? readInputFile(text.slice(1)) : text;
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new UsageError(`--input is not JSON: ${(error as Error).message}.`);
  }
}

function readInputFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`--input @${path}: no such file can be read.`);
  }
}
