import { type Inputs, useEffect, useState } from 'preact/hooks';

/** One page of a list: its rows and the cursor of the next page (`null` on the last). */
export interface Page<Row> {
  rows: Row[];
  next: string | null;
}

/**
 * A list read a page at a time: the first page whenever `inputs` change, the next one appended on
 * `more()`.
 */
export function usePages<Row>(
  load: (after: string | undefined) => Promise<Page<Row>>,
  inputs: Inputs,
): { rows: Row[]; next: string | null; more: () => void; error: unknown } {
  const [rows, setRows] = useState<Row[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const read = (after: string | undefined, earlier: Row[]) =>
    // Started inside a promise: a load that throws at once is shown as an error, not thrown at render.
    Promise.resolve(after)
      .then(load)
      .then(
        (page) => {
          setRows([...earlier, ...page.rows]);
          setNext(page.next);
        },
        (failure: unknown) => setError(failure),
      );
  // The caller names what the first page depends on.
  useEffect(() => {
    setError(undefined);
    void read(undefined, []);
  }, inputs);
  return { rows, next, more: () => void read(next ?? undefined, rows), error };
}
