import type { MemoryIo } from '../io/memory-io.js';
import { main } from '../main.js';
import { type OutputWaits, outputWaits, type PrintedOutput } from './output-waits.js';

/** A command running in this process, its output readable while it runs. */
export interface RunningCommand extends Pick<OutputWaits, 'waitFor'> {
  stdout(): string;
  stderr(): string;
  /** Asks the command to stop, as Ctrl-C does. */
  stop(): void;
  /** Settles with the command's exit code. */
  exited: Promise<number>;
}

/** Starts `agentstep ARGS` in this process on `io`; its waits look at the output again after each write. */
export function startCommand(io: MemoryIo, args: string[]): RunningCommand {
  const output = () => ({ stdout: io.out.join(''), stderr: io.err.join('') });
  const waits = outputWaits(output, `agentstep ${args.join(' ')}`);
  const printed = (write: (text: string) => void) => (text: string) => {
    write(text);
    waits.changed();
  };
  const exited = main(args, { ...io, stdout: printed(io.stdout), stderr: printed(io.stderr) });
  exited.finally(waits.ended).catch(() => {});
  return {
    stdout: () => output().stdout,
    stderr: () => output().stderr,
    stop: () => io.requestStop(),
    exited,
    waitFor: waits.waitFor,
  };
}

/** The address `agentstep serve` announced on its first line, once it has (for `waitFor`). */
export function listeningUrl({ stdout }: PrintedOutput): string | undefined {
  return /^listening on (http:\/\/\S+)\n/.exec(stdout)?.[1];
}
