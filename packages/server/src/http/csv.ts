/**
 * CSV downloads as spreadsheet software set to pt-BR reads them: semicolon-separated (the comma
 * is the decimal separator there), a UTF-8 BOM, CRLF lines. A cell a spreadsheet would run as a
 * formula (starting with =, +, -, @, a tab or a carriage return) is prefixed with an apostrophe,
 * and a cell holding the separator, a quote or a line break is quoted with its quotes doubled.
 */

export const CSV_BOM = '\uFEFF';

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, its line break included. */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(';')}\r\n`;
}
