// CSV for exports: RFC 4180 quoting, and no cell a spreadsheet would run as a formula, so an exported
// user agent, page URL or website name cannot run anything on the machine of whoever opens the file.
//
// Following OWASP's CSV injection guidance, a cell is not only dangerous when it starts with a
// formula character (= + - @, tab, CR): spreadsheets trim leading whitespace before reading one, and
// a spreadsheet set to another list separator (`;` in much of Europe, or tab, or a line break, none
// of which our quotes protect because our quotes only count at the start of a comma-separated cell)
// splits a cell and reads each piece as a cell of its own. So:
// - a cell that starts with a formula character (even behind quotes) or with any whitespace, or
//   contains a `;`, gets a leading apostrophe (the spreadsheet convention for "this is text");
// - inside a cell, a piece that follows a separator (`,` `;` tab, CR, LF) and would itself start a
//   formula, even after spaces or a quote, gets an apostrophe after the separator.
// The apostrophe changes the text visibly, as OWASP's own remedy does: a safe file beats a verbatim
// one for a download meant to be opened in a spreadsheet; the JSON export stays verbatim.

/**
 * A cell that starts a formula (= + - @, also behind quotes a reader may strip), or starts with
 * whitespace (tab and CR are read as formula starts by some apps; others trim spaces and read what
 * follows), or holds a `;`, the list separator of many locales, where the spreadsheet splits the cell.
 */
const unsafeCell = /^["\s]*[=+\-@]|^\s|;/;
/**
 * A separator some spreadsheet may split on, followed by a piece that would start a formula once
 * split off (after whitespace or quotes, which the split piece may lose).
 */
const formulaAfterSeparator = /([,;\t\r\n])(?=[\s"]*[=+\-@])/g;
const needsQuotes = /[",;\r\n]/;

/** One cell, neutralised and quoted as needed. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const inner = value.replace(formulaAfterSeparator, "$1'");
  const text = unsafeCell.test(inner) ? `'${inner}` : inner;
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
