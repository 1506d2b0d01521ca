// CSV for exports: RFC 4180 quoting, and cells a spreadsheet would execute as a formula
// (=, +, -, @, and tab/CR which some apps also treat as formula starts) neutralised with a leading
// apostrophe, so an exported user agent or page URL cannot run anything on the owner's machine.

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
