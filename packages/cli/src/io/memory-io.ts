import { inMemoryStores } from '@agentstep/runtime';
import type { OpenStore, StoreKind } from '../local/open-store.js';
import type { CliIo } from './cli-io.js';

/** A {@link CliIo} in memory: scripted stdin chunks and files, captured output, a fixed clock. */
export interface MemoryIo extends CliIo {
  readonly out: string[];
  readonly err: string[];
  /** Asks the running command to stop, as Ctrl-C does. */
  requestStop(): void;
}

/** What a {@link memoryIo} starts with. */
export interface MemoryIoOptions {
  stdin?: string[];
  /** Files by path. Commands write into this same record, so IOs given one record share their files. */
  files?: Record<string, string>;
  nowMs?: number;
  dataDir?: string;
  /**
   * Where `agent.ts` is looked for and `--agent FILE` resolves.
   * @default a folder that does not exist: no agent file, whatever folder the tests run in
   */
  workingDir?: string;
  /** @default `dataDir`'s `cache/` */
  cacheDir?: string;
  /** Whether stdout takes ANSI colour, as a terminal without `NO_COLOR` does. @default false */
  color?: boolean;
  /**
   * Opens the store commands run on, whatever `--store` asked for.
   * @default a new in-memory store each time (of kind `memory`)
   */
  openStore?: (kind: StoreKind) => Promise<OpenStore>;
}

/** The default working folder of a {@link memoryIo}: none on disk, so it holds no `agent.ts`. */
const NO_PROJECT = '/agentstep-test-project';

/** Creates an in-memory {@link CliIo} for tests. */
export function memoryIo(options: MemoryIoOptions = {}): MemoryIo {
  const out: string[] = [];
  const err: string[] = [];
  const files: Record<string, string> = options.files ?? {};
  const dataDir = options.dataDir ?? '/agentstep-test-data';
  const stopListeners = new Set<() => void>();
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
    workingDir: options.workingDir ?? NO_PROJECT,
    dataDir,
    cacheDir: options.cacheDir ?? `${dataDir}/cache`,
    interactive: false,
    color: options.color ?? false,
    openStore: (kind) =>
      options.openStore?.(kind) ??
      Promise.resolve({ kind: 'memory', ...inMemoryStores(), close: async () => {} }),
    onStopRequest: (listener) => {
      const once = () => {
        stopListeners.delete(once);
        listener();
      };
      stopListeners.add(once);
      return () => stopListeners.delete(once);
    },
    requestStop: () => {
      for (const listener of [...stopListeners]) listener();
    },
  };
}
