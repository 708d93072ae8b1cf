import type { ComponentChildren, HTMLAttributes, Ref } from 'preact';

/** One column of a {@link ListTable}: its heading (each cell's label on a narrow screen) and its cell. */
export interface Column<Row> {
  label: string;
  cell: (row: Row) => ComponentChildren;
}

/** Rows as a table whose cells carry their column's label, so a narrow screen shows each row as a card. */
export function ListTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  bodyRef,
}: {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Attributes and handlers of a row's `<tr>` (a list whose rows are keyboard stops). @default none */
  rowProps?: (row: Row, index: number) => HTMLAttributes<HTMLTableRowElement>;
  bodyRef?: Ref<HTMLTableSectionElement>;
}) {
  return (
    <table class="list">
      <thead>
        <tr>
          {columns.map(({ label }) => (
            <th scope="col" key={label}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody {...(bodyRef === undefined ? {} : { ref: bodyRef })}>
        {rows.map((row, index) => (
          <tr key={rowKey(row)} {...rowProps?.(row, index)}>
            {columns.map(({ label, cell }) => (
              <td data-label={label} key={label}>
                {cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
