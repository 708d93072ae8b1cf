/** How many bytes `value` takes in a Step Functions state: its JSON in UTF-8, as the service counts. */
export function stateBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}
