import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closestName } from './closest-name.js';
import { UsageError } from './usage-error.js';

/** What a command knows of the options it does not parse itself. */
export interface OtherOptions {
  /** Flags the command takes that another parser reads (`serve --port`), offered as suggestions too. */
  known?: readonly string[];
}

/**
 * node:util `parseArgs`, strict, for every command: an unknown option is a UsageError that names
 * it, and the known flag it is closest to when one is (`unknown option --modle: did you mean
 * --model?`). Other mistakes are parseArgs' own errors.
 */
export function parseOptions<T extends ParseArgsConfig>(
  config: T,
  other: OtherOptions = {},
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const flag = isUnknownOption(error) ? unknownFlag(config) : undefined;
    if (flag === undefined) throw error;
    throw new UsageError(unknownOptionMessage(flag, config, other), { cause: error });
  }
}

function unknownOptionMessage(flag: string, config: ParseArgsConfig, other: OtherOptions): string {
  const known = [...Object.keys(config.options ?? {}).map((name) => `--${name}`), ...(other.known ?? [])];
  const suggestion = flag.startsWith('--') ? closestName(flag, known) : undefined;
  return `unknown option ${flag}${suggestion === undefined ? '.' : `: did you mean ${suggestion}?`}`;
}

function isUnknownOption(error: unknown): boolean {
  return error instanceof TypeError && 'code' in error && error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
}

/** The first option of the arguments the config does not name, as typed (`--modle`, `-x`). */
function unknownFlag(config: ParseArgsConfig): string | undefined {
  const { tokens } = parseArgs({ ...config, strict: false, tokens: true });
  // A known short option's token carries its long name.
  const names = new Set(Object.keys(config.options ?? {}));
  const unknown = tokens.find((token) => token.kind === 'option' && !names.has(token.name));
  return unknown?.kind === 'option' ? unknown.rawName : undefined;
}
