/**
 * Whether text written to `stream` may carry ANSI colour: only to a terminal, and never when
 * `NO_COLOR` is set to anything but the empty string (https://no-color.org).
 */
export function usesColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}
