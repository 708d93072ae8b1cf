import type { CliIo } from './cli-io.js';

/** A {@link CliIo} in memory: scripted stdin chunks and files, captured output, a fixed clock. */
export interface MemoryIo extends CliIo {
  readonly out: string[];
  readonly err: string[];
}

/** Creates an in-memory {@link CliIo} for tests. */
export function memoryIo(
  options: { stdin?: string[]; files?: Record<string, string>; nowMs?: number; dataDir?: string } = {},
): MemoryIo {
  const out: string[] = [];
  const err: string[] = [];
  const files: Record<string, string> = { ...options.files };
  const dataDir = options.dataDir ?? '/agentstep-test-data';
  return {
    out,
    err,
    stdin: (async function* () {
      yield* options.stdin ?? [];
    })(),
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    now: () => options.nowMs ?? 1_700_000_000_000,
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    },
    writeFile: async (path, text) => {
      files[path] = text;
    },
    dataDir,
    cacheDir: `${dataDir}/cache`,
    interactive: false,
  };
}
