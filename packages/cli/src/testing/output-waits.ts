/** What a running command has printed so far. */
export interface PrintedOutput {
  stdout: string;
  stderr: string;
}

/** Waits on the output of a command while it runs (see {@link outputWaits}). */
export interface OutputWaits {
  /** Resolves with `find`'s answer once it gives one; rejects, with the output, if the command ends first. */
  waitFor<T>(find: (output: PrintedOutput) => T | undefined): Promise<T>;
  /** Call after each write to the output: the waits look at it again. */
  changed(): void;
  /** Call once the command has ended: waits still unanswered then reject. */
  ended(): void;
}

/**
 * Waits on what `read` returns, for tests that act on a running command's output (a line saying a
 * call waits, a gate opened): each wait is answered at the write that satisfies it, never by polling.
 * `command` names the command in the error of a wait it ended before answering.
 */
export function outputWaits(read: () => PrintedOutput, command: string): OutputWaits {
  const checks = new Set<() => void>();
  let over = false;
  const changed = () => {
    for (const check of [...checks]) check();
  };
  return {
    changed,
    ended: () => {
      over = true;
      changed();
    },
    waitFor: (find) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const output = read();
          try {
            const found = find(output);
            if (found !== undefined) resolve(found);
            else if (over) reject(new Error(`${command} ended first:\n${output.stdout}\n${output.stderr}`));
            else return;
          } catch (error) {
            // The test's own mistake fails its wait, never the command whose write ran the check.
            reject(error);
          }
          checks.delete(check);
        };
        checks.add(check);
        check();
      }),
  };
}
