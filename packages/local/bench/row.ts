/** A target a bench row's figure is held to: whether it is met, and how it reads. */
export interface Target {
  met: boolean;
  text: string;
}

/**
 * One bench row: PASS or MISS against its target (INFO when it has none, a figure to compare
 * with), the label, the figure and the target. A MISS is information: the bench goes on.
 */
export function row(label: string, figure: string, target?: Target): string {
  const verdict = target === undefined ? 'INFO' : target.met ? 'PASS' : 'MISS';
  const goal = target === undefined ? '(no target: information)' : `(target ${target.text})`;
  return `${verdict}  ${label.padEnd(50)}${figure.padStart(16)}  ${goal}`;
}

/** A target of at most `limit`, in the figure's `unit`. */
export function atMost(value: number, limit: number, unit = ''): Target {
  return { met: value <= limit, text: `<= ${limit}${unit}` };
}
