import { setTimeout as sleep } from 'node:timers/promises';
import { onTestFinished } from 'vitest';

/**
 * Reads with `read` until `holds` is true of what it returned, and returns that; call it in a test.
 * It polls a condition, never counts tries or time: the test's timeout bounds it, and it stops
 * when the test does (a worker's later test files never share the machine with it).
 */
export async function readUntil<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  let finished = false;
  onTestFinished(() => {
    finished = true;
  });
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (finished) throw new Error('The test ended before the condition held.');
    await sleep(10);
  }
}
