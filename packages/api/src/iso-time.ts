/** An instant given in ms since the epoch, as the API writes times: ISO 8601 in UTC (`2026-01-02T03:04:05.000Z`). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
