/** Prints rows as aligned columns (the last column is not padded). */
export function printTable(out: (line: string) => void, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (row: string[]) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  out(fmt(head));
  for (const row of rows) out(fmt(row));
}
