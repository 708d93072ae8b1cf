import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** What a model streams in a measured step: one `<think>`, one call's argument, or calls of 1 MB. */
export type StepShape = 'think' | 'argument' | 'calls';

const SHAPES: readonly string[] = ['think', 'argument', 'calls'] satisfies StepShape[];

/** Whether `value` names a {@link StepShape}. */
export function isStepShape(value: unknown): value is StepShape {
  return typeof value === 'string' && SHAPES.includes(value);
}

/** What one measured step did, and the memory its process took. */
export interface StepMemory {
  /** Where the loop goes after the step (`results` for a step refused at a cap). */
  next: string;
  /** The step's batch failure, as the model reads it; `null` when it had none. */
  failure: string | null;
  /** Chunks the step read from the provider, and whether the provider's stream was closed. */
  chunksRead: number;
  closed: boolean;
  /** Resident memory before the step (after a collection), and the process's peak, in bytes. */
  baseRss: number;
  maxRss: number;
}

const run = promisify(execFile);

/**
 * Runs one model step of a provider streaming `bytes` of `shape` in a fresh Node process (through
 * tsx, with `--expose-gc`), so that nothing else the caller holds counts: its peak resident memory
 * is the process's own `maxRSS`, which no sampling can miss.
 */
export async function measureStepMemory(shape: StepShape, bytes: number): Promise<StepMemory> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = join(dirname(fileURLToPath(import.meta.url)), 'step-memory-child.ts');
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', tsx, child, shape, String(bytes)],
    {
      maxBuffer: 1024 * 1024,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as StepMemory;
}
