import { parse } from '@agentstep/protocol';

const CLOSER = '</execute>';

/**
 * What to append to a step's output when the provider stopped at a stop sequence (A7): the
 * `</execute>` it swallowed, when the output has an `<execute>` block open outside a JSON string;
 * otherwise nothing (the `<end>` stop, or a natural end, needs no marker).
 */
export function restoreStoppedCloser(text: string): string {
  const executes = (output: string) => parse(output).some((event) => event.type === 'execute');
  return !executes(text) && executes(text + CLOSER) ? CLOSER : '';
}
