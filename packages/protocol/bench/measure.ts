/** Median wall time in milliseconds of `run`, after one warm-up call. */
export function medianMs(run: () => void, repeats: number): number {
  run();
  const times: number[] = [];
  for (let index = 0; index < repeats; index++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** A target line: the measured value, the target, and whether it is met. */
export function verdict(label: string, value: string, met: boolean, target: string): string {
  return `${met ? 'PASS' : 'MISS'}  ${label}: ${value} (target ${target})`;
}
