import { CSV_FORMULA_PREFIXES } from '@kaminuza/shared';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled. A
 * text a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is prefixed with
 * a single quote, so an applicant's name can never execute in a reviewer's spreadsheet.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && CSV_FORMULA_PREFIXES.some((prefix) => text.startsWith(prefix))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, ended by CRLF as RFC 4180 asks. */
export function csvLine(cells: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
