// CSV as spreadsheets read it (RFC 4180): every cell quoted, quotes doubled, lines
// ended with CRLF. A cell that a spreadsheet would run as a formula (starting with
// = + - @, a tab or a carriage return) gets a leading apostrophe, so text someone typed
// into a name or an e-mail never runs on the machine of whoever opens the export
// (docs/teams.md, "Audit log"). Pure.

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const safe = FORMULA.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
