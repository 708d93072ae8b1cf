import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gives the test run a temporary folder of its own as TMPDIR, inherited by the test workers and
 * every process they start, and removes it when the run ends: what tests and the binaries they
 * run leave in their temporary folders never outlives the run.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'agentstep-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
